// Handler for the resource "weather://about".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { ResourceReadResult, SpecContext } from "../../../runtime/handler-api.ts";
import { definition } from "../../definition.ts";

export default async function resourceAbout(uri: string, _ctx: SpecContext): Promise<ResourceReadResult> {
  const tools = definition
    .catalog()
    .tools.map((tool) => `- ${tool.name}: ${tool.description ?? ""}`)
    .join("\n");
  const text = `# ${definition.server.title ?? definition.server.name} ${definition.server.version}\n\n${tools}\n`;
  return { contents: [{ uri, mimeType: "text/markdown", text }] };
}
