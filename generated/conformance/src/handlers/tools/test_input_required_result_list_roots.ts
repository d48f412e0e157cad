// Handler for the tool "test_input_required_result_list_roots".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestInputRequiredResultListRootsInput } from "../../types.ts";

export default async function toolTestInputRequiredResultListRoots(
  _args: TestInputRequiredResultListRootsInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const { roots_request } = await ctx.requestInputs({ roots_request: { method: "roots/list", params: {} } });
  const roots = (roots_request as { roots?: unknown[] }).roots ?? [];
  return text(`Found ${roots.length} root(s)`);
}
