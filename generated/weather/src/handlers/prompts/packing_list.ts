// Handler for the prompt "packing_list".
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
import type { GetPromptResult, SpecContext } from "../../../runtime/handler-api.ts";
import type { PackingListPromptArgs } from "../../types.ts";

export default async function promptPackingList(
  args: PackingListPromptArgs,
  _ctx: SpecContext,
): Promise<GetPromptResult> {
  const days = Number.parseInt(args.days ?? "", 10);
  const length = Number.isFinite(days) && days > 0 ? `${days} days` : "a few days";
  return {
    description: `Packing list for ${args.city}`,
    messages: [
      {
        role: "user",
        content: {
          type: "text",
          text: `I am going to ${args.city} for ${length}. Check the forecast with get_forecast, then suggest what to pack.`,
        },
      },
    ],
  };
}
