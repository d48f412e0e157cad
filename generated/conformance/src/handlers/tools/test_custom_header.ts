// Handler for the tool "test_custom_header".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestCustomHeaderInput } from "../../types.ts";

export default async function toolTestCustomHeader(
  args: TestCustomHeaderInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return text(`region=${args.region}`);
}
