// Handler for the tool "test_input_required_result_request_state".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicit, text } from "../../fixture-data.ts";
import type { TestInputRequiredResultRequestStateInput } from "../../types.ts";

export default async function toolTestInputRequiredResultRequestState(
  _args: TestInputRequiredResultRequestStateInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const { confirm } = await ctx.requestInputs({
    confirm: elicit("Please confirm", { ok: { type: "boolean" } }, ["ok"]),
  });
  const ok = (confirm as { content?: { ok?: unknown } }).content?.ok === true;
  return text(ok ? "state-ok: requestState validated" : "state-not-confirmed");
}
