// Handler for the tool "test_input_required_result_multiple_inputs".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { askName, contentField, sample, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultMultipleInputsInput } from "../../types.ts";

export default async function toolTestInputRequiredResultMultipleInputs(
  _args: TestInputRequiredResultMultipleInputsInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const answers = await ctx.requestInputs({
    user_name: askName,
    greeting: sample("Generate a greeting", 50),
    client_roots: { method: "roots/list", params: {} },
  });
  const greeting = (answers.greeting as { content?: { text?: string } }).content?.text ?? "Hello there!";
  const roots = (answers.client_roots as { roots?: unknown[] }).roots ?? [];
  return text(`Name: ${contentField(answers.user_name, "name")}; Greeting: ${greeting}; Roots: ${roots.length}`);
}
