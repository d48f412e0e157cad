// Handler for the tool "test_trigger_tool_change".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestTriggerToolChangeInput } from "../../types.ts";

export default async function toolTestTriggerToolChange(
  _args: TestTriggerToolChangeInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  // Adding and removing a throwaway tool makes the runtime announce tools/list_changed.
  ctx.server
    .tool({
      name: "test_dynamic_tool",
      description: "Appears briefly",
      inputSchema: { type: "object", properties: {} },
      handler: () => ({ content: [] }),
    })
    .remove();
  return text("Mutation triggered");
}
