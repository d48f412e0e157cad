// Handler for the tool "test_input_required_result_sampling".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { sample, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultSamplingInput } from "../../types.ts";

export default async function toolTestInputRequiredResultSampling(
  _args: TestInputRequiredResultSamplingInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const { sample_request } = await ctx.requestInputs({ sample_request: sample("What is the capital of France?", 100) });
  const content = (sample_request as { content?: { text?: string } }).content;
  return text(`Sampling result: ${content?.text ?? "no response"}`);
}
