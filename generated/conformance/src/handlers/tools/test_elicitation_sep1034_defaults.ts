// Handler for the tool "test_elicitation_sep1034_defaults".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicitationSummary } from "../../fixture-data.ts";
import type { TestElicitationSep1034DefaultsInput } from "../../types.ts";

export default async function toolTestElicitationSep1034Defaults(
  _args: TestElicitationSep1034DefaultsInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const result = await ctx.elicit({
    message: "Please review and update the form fields with defaults",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
      required: [],
    },
  });
  return elicitationSummary("Elicitation completed", result);
}
