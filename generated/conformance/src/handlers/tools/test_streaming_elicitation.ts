// Handler for the tool "test_streaming_elicitation".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestStreamingElicitationInput } from "../../types.ts";

export default async function toolTestStreamingElicitation(
  _args: TestStreamingElicitationInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  ctx.progress(50, 100, "halfway");
  return text("Streaming complete");
}
