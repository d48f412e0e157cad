// Handler for the tool "test_multiple_content_types".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { TEST_IMAGE_BASE64 } from "../../fixture-data.ts";
import type { TestMultipleContentTypesInput } from "../../types.ts";

export default async function toolTestMultipleContentTypes(
  _args: TestMultipleContentTypesInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return {
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  };
}
