// The `budget` feature: --max-response-tokens, tool results cut to a token budget at whole list items or
// lines, with a note naming the arguments that fetch the rest (response-budget.ts). Its o200k counts come
// from its own encoder and packed vocabulary (o200k.ts), not from a tokenizer library.
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { optional } from "../../package/flag-parser.ts";
import { DEFAULT_MAX_RESPONSE_TOKENS } from "./flags.ts";
import { fitHandlerResult, fitUpstreamResult } from "./response-budget.ts";

export const budgetFeature: Feature = {
  name: "budget",
  configure,
  fitResult: (result, context) => {
    const maxTokens = context.maxTokens ?? DEFAULT_MAX_RESPONSE_TOKENS;
    return context.kind === "upstream"
      ? fitUpstreamResult({ result, ...context.answer }, { ...context.call, maxTokens })
      : fitHandlerResult(result, maxTokens);
  },
};

function configure({ values }: FeatureInput): FeatureSetup {
  return { server: optional("maxResponseTokens", values["max-response-tokens"]) };
}
