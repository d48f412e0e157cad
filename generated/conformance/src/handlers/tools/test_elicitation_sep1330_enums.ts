// Handler for the tool "test_elicitation_sep1330_enums".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import { elicitationSummary } from "../../fixture-data.ts";
import type { TestElicitationSep1330EnumsInput } from "../../types.ts";

export default async function toolTestElicitationSep1330Enums(
  _args: TestElicitationSep1330EnumsInput,
  ctx: SpecContext,
): Promise<ToolResult<{ [key: string]: unknown }>> {
  const titled = (prefix: string) =>
    [1, 2, 3].map((n) => ({ const: `value${n}`, title: `${["First", "Second", "Third"][n - 1]} ${prefix}` }));
  const result = await ctx.elicit({
    message: "Please select options from the enum fields",
    requestedSchema: {
      type: "object",
      properties: {
        untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
        titledSingle: { type: "string", description: "Select one option with titles", oneOf: titled("Option") },
        legacyEnum: {
          type: "string",
          description: "Select one option (legacy)",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: {
          type: "array",
          description: "Select multiple options",
          minItems: 1,
          maxItems: 3,
          items: { type: "string", enum: ["option1", "option2", "option3"] },
        },
        titledMulti: {
          type: "array",
          description: "Select multiple options with titles",
          minItems: 1,
          maxItems: 3,
          items: { anyOf: titled("Choice") },
        },
      },
      required: [],
    },
  } as never);
  return elicitationSummary("Elicitation completed", result);
}
