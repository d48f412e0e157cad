// Handler for the tool "test_input_required_result_elicitation".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { askName, contentField, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultElicitationInput } from "../../types.ts";

export default async function toolTestInputRequiredResultElicitation(
  _args: TestInputRequiredResultElicitationInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const { user_name } = await ctx.requestInputs({ user_name: askName });
  return text(`Hello, ${contentField(user_name, "name")}!`);
}
