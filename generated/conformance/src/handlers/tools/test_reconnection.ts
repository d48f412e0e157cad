// Handler for the tool "test_reconnection".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { sleep, text } from "../../fixture-data.ts";
import type { TestReconnectionInput } from "../../types.ts";

export default async function toolTestReconnection(
  _args: TestReconnectionInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  // The log line turns the answer into an SSE stream, on which server-sse-polling looks for a retry field.
  ctx.log("info", "test_reconnection started");
  await sleep(100);
  return text("Reconnection test completed successfully.");
}
