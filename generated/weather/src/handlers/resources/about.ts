// Handler for the resource "weather://about".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { HandlerContext } from "../../../runtime/index.ts";
import type { ResourceReadResult } from "../../../runtime/server/types.ts";
import { manifest } from "../../manifest.ts";

export default async function resourceAbout(uri: string, _ctx: HandlerContext): Promise<ResourceReadResult> {
  const tools = manifest
    .catalog()
    .tools.map((tool) => `- ${tool.name}: ${tool.description ?? ""}`)
    .join("\n");
  const text = `# ${manifest.server.title ?? manifest.server.name} ${manifest.server.version}\n\n${tools}\n`;
  return { contents: [{ uri, mimeType: "text/markdown", text }] };
}
