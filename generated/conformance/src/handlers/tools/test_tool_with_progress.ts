// Handler for the tool "test_tool_with_progress".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { sleep, text } from "../../fixture-data.ts";
import type { TestToolWithProgressInput } from "../../types.ts";

export default async function toolTestToolWithProgress(
  _args: TestToolWithProgressInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  for (const step of [0, 50, 100]) {
    ctx.progress(step, 100, `Completed step ${step} of 100`);
    if (step < 100) await sleep(50);
  }
  return text(String(ctx.meta.progressToken ?? "no-progress-token"));
}
