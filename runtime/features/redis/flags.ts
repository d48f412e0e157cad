// The `redis` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const redisFlags: FlagSet = {
  group: "redis",
  title: "Sessions shared by several instances (HTTP)",
  flags: [
    {
      flag: "session-store",
      env: "MCP_SESSION_STORE",
      kind: "string",
      arg: "<url>",
      defaultText: "in the process",
      http: true,
      // A Redis URL may hold the store's password.
      secret: true,
      help: "keep 2025-era sessions in Redis (redis://host:port/db, rediss:// for TLS), shared by every instance given the same URL, so any instance behind a load balancer serves any session",
      doc: "keep 2025-era sessions in Redis (`redis://host:port/db`, `rediss://` for TLS), shared by every instance given the same URL: any instance serves any session, resumes its streams, delivers its server-to-client requests. Unreachable at start: exit 1; lost later: 503 until it is back",
    },
    {
      flag: "task-store",
      env: "MCP_TASK_STORE",
      kind: "string",
      arg: "<url>",
      defaultText: "--session-store's, else in the process",
      secret: true,
      help: "keep MCP tasks (the tasks feature's) in this Redis, shared by every instance given the same URL: a task made on one is polled and read on any other, and outlives the instance",
    },
  ],
};
