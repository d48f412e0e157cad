// The `budget` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const DEFAULT_MAX_RESPONSE_TOKENS = 25_000;
/** The smallest budget: below it the note alone would take much of it. */
export const MIN_RESPONSE_TOKENS = 500;

export const budgetFlags: FlagSet = {
  group: "budget",
  title: "Response budget",
  flags: [
    {
      flag: "max-response-tokens",
      env: "MCP_MAX_RESPONSE_TOKENS",
      kind: "whole",
      arg: "<n>",
      min: MIN_RESPONSE_TOKENS,
      default: String(DEFAULT_MAX_RESPONSE_TOKENS),
      setting: "Response token budget",
      help: "tokens (o200k) of a tool result before it is cut at whole list items or lines, with a note naming the arguments that fetch the rest",
      doc: "tokens (o200k) of a tool result before it is cut: see [Responses within a budget](#responses-within-a-budget)",
    },
  ],
};
