// Handler for the tool "test_input_required_result_multi_round".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { contentField, elicit, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultMultiRoundInput } from "../../types.ts";

export default async function toolTestInputRequiredResultMultiRound(
  _args: TestInputRequiredResultMultiRoundInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const { step1 } = await ctx.requestInputs({
    step1: elicit("Step 1: What is your name?", { name: { type: "string" } }, ["name"]),
  });
  const name = contentField(step1, "name");
  const { step2 } = await ctx.requestInputs({
    step2: elicit(`Step 2: Hi ${name}, what is your favorite color?`, { color: { type: "string" } }, ["color"]),
  });
  return text(`Multi-round complete for ${name} who likes ${contentField(step2, "color")}`);
}
