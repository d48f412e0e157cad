// The `tasks` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const tasksFlags: FlagSet = {
  group: "tasks",
  title: "Long-running operations (MCP Tasks)",
  flags: [
    {
      flag: "task-ttl",
      env: "MCP_TASK_TTL_MS",
      kind: "whole",
      arg: "<ms>",
      min: 1000,
      max: 30 * 24 * 3_600_000,
      default: "3600000",
      help: "how long a task, and the result it ends with, is kept; an upstream job still running then is given up as failed",
    },
    {
      flag: "task-wait",
      env: "MCP_TASK_WAIT_MS",
      kind: "whole",
      arg: "<ms>",
      min: 0,
      max: 3_600_000,
      default: "60000",
      help: "how long a call from a client without tasks waits for the job's result before answering that it is still running",
    },
    {
      flag: "task-poll-interval",
      env: "MCP_TASK_POLL_INTERVAL_MS",
      kind: "whole",
      arg: "<ms>",
      min: 100,
      max: 3_600_000,
      default: "2000",
      help: "time between two polls of an upstream job when it sends no Retry-After (a binding's pollIntervalMs wins)",
    },
  ],
};
