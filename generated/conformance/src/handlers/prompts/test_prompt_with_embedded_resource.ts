// Handler for the prompt "test_prompt_with_embedded_resource".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { GetPromptResult } from "../../../runtime/handler-api.ts";
import type { TestPromptWithEmbeddedResourcePromptArgs } from "../../types.ts";

export default async function promptTestPromptWithEmbeddedResource(
  args: TestPromptWithEmbeddedResourcePromptArgs,
): Promise<GetPromptResult> {
  return {
    messages: [
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  };
}
