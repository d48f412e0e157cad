// The `redis` feature's flags (see runtime/package/server-flags.ts for the record's fields).
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
  ],
};
