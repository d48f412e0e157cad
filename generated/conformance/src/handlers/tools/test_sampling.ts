// Handler for the tool "test_sampling".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestSamplingInput } from "../../types.ts";

export default async function toolTestSampling(
  args: TestSamplingInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const result = await ctx.sample({
    messages: [{ role: "user", content: { type: "text", text: args.prompt } }],
    maxTokens: 100,
  });
  const content = result.content as { text?: string } | undefined;
  return text(`LLM response: ${content?.text ?? "No response"}`);
}
