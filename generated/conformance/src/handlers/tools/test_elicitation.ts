// Handler for the tool "test_elicitation".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicitationSummary } from "../../fixture-data.ts";
import type { TestElicitationInput } from "../../types.ts";

export default async function toolTestElicitation(
  args: TestElicitationInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const result = await ctx.elicit({
    message: args.message,
    requestedSchema: {
      type: "object",
      properties: { response: { type: "string", description: "User's response" } },
      required: ["response"],
    },
  });
  return elicitationSummary("User response", result);
}
