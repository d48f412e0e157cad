// Handler for the tool "test_input_required_result_capabilities".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { InputRequest, SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicit, sample, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultCapabilitiesInput } from "../../types.ts";

export default async function toolTestInputRequiredResultCapabilities(
  _args: TestInputRequiredResultCapabilitiesInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const wanted: Record<string, InputRequest> = {};
  if (ctx.clientCapabilities.elicitation)
    wanted.elicit_input = elicit("Elicitation input", { value: { type: "string" } }, ["value"]);
  if (ctx.clientCapabilities.sampling) wanted.sample_input = sample("Sample request", 50);
  if (Object.keys(wanted).length === 0) return text("No supported capabilities declared");
  const answers = await ctx.requestInputs(wanted);
  return text(`capabilities-ok: received ${Object.keys(answers).join(",")}`);
}
