// Handler for the tool "test_trigger_prompt_change".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestTriggerPromptChangeInput } from "../../types.ts";

export default async function toolTestTriggerPromptChange(
  _args: TestTriggerPromptChangeInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  ctx.server
    .prompt({ name: "test_dynamic_prompt", description: "Appears briefly", get: () => ({ messages: [] }) })
    .remove();
  return text("Mutation triggered");
}
