// Handler for the tool "convert_temperature".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { ConvertTemperatureInput, ConvertTemperatureOutput } from "../../types.ts";

export default async function toolConvertTemperature(
  args: ConvertTemperatureInput,
  _ctx: SpecContext,
): Promise<ToolResult<ConvertTemperatureOutput>> {
  const celsiusToFahrenheit = args.from === "C";
  const value = celsiusToFahrenheit ? (args.value * 9) / 5 + 32 : ((args.value - 32) * 5) / 9;
  // Rounded to one decimal: more precision than a thermometer has only adds noise.
  return { structuredContent: { value: Math.round(value * 10) / 10, unit: celsiusToFahrenheit ? "F" : "C" } };
}
