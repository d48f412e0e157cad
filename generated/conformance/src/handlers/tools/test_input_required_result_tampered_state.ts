// Handler for the tool "test_input_required_result_tampered_state".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicit, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultTamperedStateInput } from "../../types.ts";

export default async function toolTestInputRequiredResultTamperedState(
  _args: TestInputRequiredResultTamperedStateInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  await ctx.requestInputs({ confirm: elicit("Please confirm", { ok: { type: "boolean" } }, ["ok"]) });
  return text("integrity-ok: state verified");
}
