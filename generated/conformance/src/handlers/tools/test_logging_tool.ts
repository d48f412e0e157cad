// Handler for the tool "test_logging_tool".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestLoggingToolInput } from "../../types.ts";

export default async function toolTestLoggingTool(
  _args: TestLoggingToolInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  ctx.log("info", "Diagnostic trace logging activated");
  return text("Logging evaluated");
}
