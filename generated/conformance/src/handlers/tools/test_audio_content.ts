// Handler for the tool "test_audio_content".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { TEST_AUDIO_BASE64 } from "../../fixture-data.ts";
import type { TestAudioContentInput } from "../../types.ts";

export default async function toolTestAudioContent(
  _args: TestAudioContentInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return { content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }] };
}
