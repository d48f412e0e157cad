// Handler for the tool "test_error_handling".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { TestErrorHandlingInput } from "../../types.ts";

export default async function toolTestErrorHandling(
  _args: TestErrorHandlingInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return { isError: true, content: [{ type: "text", text: "This tool intentionally returns an error for testing" }] };
}
