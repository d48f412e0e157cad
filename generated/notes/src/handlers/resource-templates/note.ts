// Handler for the resource template "notes://note/{id}".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { ResourceReadResult, SpecContext } from "../../../runtime/handler-api.ts";
import { getNote } from "../../notes-store.ts";

export default async function resourceTemplateNote(
  uri: string,
  variables: Record<string, string>,
  ctx: SpecContext,
): Promise<ResourceReadResult> {
  const note = getNote(variables.id);
  // "Resource not found": -32602 for a 2026-07-28 client, -32002 for a 2025 one; ctx.notFound picks.
  if (!note) throw ctx.notFound(uri, `No note ${variables.id}`);
  return { contents: [{ uri, mimeType: "text/markdown", text: `# ${note.title}\n\n${note.body}\n` }] };
}
