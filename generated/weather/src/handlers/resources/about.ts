// Handler for the resource "weather://about".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { ResourceReadResult, SpecContext } from "../../../runtime/handler-api.ts";
import { manifest } from "../../manifest.ts";

export default async function resourceAbout(uri: string, _ctx: SpecContext): Promise<ResourceReadResult> {
  const tools = manifest
    .catalog()
    .tools.map((tool) => `- ${tool.name}: ${tool.description ?? ""}`)
    .join("\n");
  const text = `# ${manifest.server.title ?? manifest.server.name} ${manifest.server.version}\n\n${tools}\n`;
  return { contents: [{ uri, mimeType: "text/markdown", text }] };
}
