// Handler for the tool "test_missing_capability".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import { ErrorCode, McpError, type SpecContext, type ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestMissingCapabilityInput } from "../../types.ts";

export default async function toolTestMissingCapability(
  _args: TestMissingCapabilityInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  if (!ctx.clientCapabilities.sampling) {
    throw new McpError(ErrorCode.MissingRequiredClientCapability, "This tool needs the sampling capability", {
      requiredCapabilities: { sampling: {} },
    });
  }
  return text("Success");
}
