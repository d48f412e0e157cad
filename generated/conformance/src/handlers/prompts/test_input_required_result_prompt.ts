// Handler for the prompt "test_input_required_result_prompt".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { GetPromptResult, SpecContext } from "../../../runtime/handler-api.ts";
import { contentField, elicit } from "../../fixture-data.ts";
import type { TestInputRequiredResultPromptPromptArgs } from "../../types.ts";

export default async function promptTestInputRequiredResultPrompt(
  _args: TestInputRequiredResultPromptPromptArgs,
  ctx: SpecContext,
): Promise<GetPromptResult> {
  const { user_context } = await ctx.requestInputs({
    user_context: elicit("What context should the prompt use?", { context: { type: "string" } }, ["context"]),
  });
  return {
    messages: [
      {
        role: "user",
        content: { type: "text", text: `Prompt with context: ${contentField(user_context, "context")}` },
      },
    ],
  };
}
