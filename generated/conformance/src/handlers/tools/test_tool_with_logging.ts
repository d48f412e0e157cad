// Handler for the tool "test_tool_with_logging".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { sleep, text } from "../../fixture-data.ts";
import type { TestToolWithLoggingInput } from "../../types.ts";

export default async function toolTestToolWithLogging(
  _args: TestToolWithLoggingInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  ctx.log("info", "Tool execution started");
  await sleep(50);
  ctx.log("info", "Tool processing data");
  await sleep(50);
  ctx.log("info", "Tool execution completed");
  return text("Tool with logging executed successfully");
}
