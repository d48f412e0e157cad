// Handler for the tool "test_simple_text".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { TestSimpleTextInput } from "../../types.ts";

export default async function toolTestSimpleText(
  _args: TestSimpleTextInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return text("This is a simple text response for testing.");
}
