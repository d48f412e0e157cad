// The `code` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const codeFlags: FlagSet = {
  group: "code",
  title: "Code mode",
  flags: [
    {
      flag: "allow-destructive",
      env: "MCP_ALLOW_DESTRUCTIVE",
      kind: "boolean",
      default: "false",
      turnsOn: "let code call destructive tools unconfirmed",
      help: "let code call destructive tools without the client's confirmation (default: ask through elicitation, refuse when the client cannot be asked)",
    },
    {
      flag: "code-timeout",
      env: "MCP_CODE_TIMEOUT",
      kind: "whole",
      arg: "<ms>",
      min: 1,
      default: "30000",
      help: "wall time of one execute, API calls included",
    },
    {
      flag: "code-memory",
      env: "MCP_CODE_MEMORY",
      kind: "whole",
      arg: "<MB>",
      min: 1,
      default: "64",
      help: "memory of the sandbox",
    },
    {
      flag: "code-max-calls",
      env: "MCP_CODE_MAX_CALLS",
      kind: "whole",
      arg: "<n>",
      min: 0,
      default: "50",
      help: "API calls one execute may make",
    },
    {
      flag: "code-concurrency",
      env: "MCP_CODE_CONCURRENCY",
      kind: "whole",
      arg: "<n>",
      min: 1,
      defaultText: "the cores, at most 4",
      help: "executes that run at once, one sandbox thread each; the others wait up to their timeout",
    },
  ],
};
