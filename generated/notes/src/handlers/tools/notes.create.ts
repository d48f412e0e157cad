// Handler for the tool "notes.create".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { createNote } from "../../notes-store.ts";
import type { NotesCreateInput, NotesCreateOutput } from "../../types.ts";

export default async function toolNotesCreate(
  args: NotesCreateInput,
  _ctx: SpecContext,
): Promise<ToolResult<NotesCreateOutput>> {
  const note = createNote(args.title, args.body, args.tags);
  return { structuredContent: { id: note.id, createdAt: note.createdAt } };
}
