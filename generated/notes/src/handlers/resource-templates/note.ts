// Handler for the resource template "notes://note/{id}".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { HandlerContext } from "../../../runtime/index.ts";
import { McpError } from "../../../runtime/index.ts";
import type { ResourceReadResult } from "../../../runtime/server-types.ts";
import { getNote } from "../../notes-store.ts";

export default async function resourceTemplateNote(
  uri: string,
  variables: Record<string, string>,
  _ctx: HandlerContext,
): Promise<ResourceReadResult> {
  const note = getNote(variables.id);
  // -32002 is MCP's "resource not found".
  if (!note) throw new McpError(-32002, `No note ${variables.id}`, { uri });
  return { contents: [{ uri, mimeType: "text/markdown", text: `# ${note.title}\n\n${note.body}\n` }] };
}
