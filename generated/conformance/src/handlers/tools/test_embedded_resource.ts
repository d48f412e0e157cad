// Handler for the tool "test_embedded_resource".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { TestEmbeddedResourceInput } from "../../types.ts";

export default async function toolTestEmbeddedResource(
  _args: TestEmbeddedResourceInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return {
    content: [
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ],
  };
}
