// Handler for the tool "json_schema_2020_12_tool".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { text } from "../../fixture-data.ts";
import type { JsonSchema202012ToolInput } from "../../types.ts";

export default async function toolJsonSchema202012Tool(
  args: JsonSchema202012ToolInput,
  _ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  return text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`);
}
