// Handler for the tool "notes.search".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { findNotes } from "../../notes-store.ts";
import type { NotesSearchInput, NotesSearchOutput } from "../../types.ts";

export default async function toolNotesSearch(
  args: NotesSearchInput,
  _ctx: SpecContext,
): Promise<ToolResult<NotesSearchOutput>> {
  const results = findNotes(args.query, args.tag, args.limit).map(({ id, title }) => ({ id, title }));
  return { structuredContent: { results } };
}
