// The `metrics` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const metricsFlags: FlagSet = {
  group: "metrics",
  title: "Metrics (HTTP)",
  flags: [
    {
      flag: "metrics",
      env: "MCP_METRICS",
      kind: "boolean",
      default: "false",
      turnsOn: "serve /metrics",
      http: true,
      help: "serve Prometheus metrics at GET /metrics on the HTTP port, behind the same Host/Origin and token checks as /mcp",
    },
    {
      flag: "metrics-port",
      env: "MCP_METRICS_PORT",
      kind: "whole",
      arg: "<n>",
      min: 0,
      max: 65535,
      http: true,
      help: "serve the metrics on a port of their own instead (same --host, no token: keep it on the operator's network); implies --metrics",
    },
  ],
};
