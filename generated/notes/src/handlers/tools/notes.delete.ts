// Handler for the tool "notes.delete".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { deleteNote } from "../../notes-store.ts";
import type { NotesDeleteInput } from "../../types.ts";

export default async function toolNotesDelete(
  args: NotesDeleteInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  // Deleting twice is not an error: the tool is declared idempotent.
  const existed = deleteNote(args.id);
  return {
    content: [{ type: "text", text: existed ? `Deleted note ${args.id}.` : `No note ${args.id}; nothing to delete.` }],
  };
}
