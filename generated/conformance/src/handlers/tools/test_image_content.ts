// Handler for the tool "test_image_content".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { TEST_IMAGE_BASE64 } from "../../fixture-data.ts";
import type { TestImageContentInput } from "../../types.ts";

export default async function toolTestImageContent(
  _args: TestImageContentInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return { content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }] };
}
