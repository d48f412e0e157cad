// Handler for the tool "notes.search".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { HandlerContext } from "../../../runtime/index.ts";
import type { ToolResult } from "../../../runtime/package/spec-server.ts";
import { findNotes } from "../../notes-store.ts";
import type { NotesSearchInput, NotesSearchOutput } from "../../types.ts";

export default async function toolNotesSearch(
  args: NotesSearchInput,
  _ctx: HandlerContext,
): Promise<ToolResult<NotesSearchOutput>> {
  const results = findNotes(args.query, args.tag, args.limit).map(({ id, title }) => ({ id, title }));
  return { structuredContent: { results } };
}
