import type { ServerResponse } from "node:http";
import { observeUpstreamWith } from "../../server/log.ts";
import type { HttpFeatures } from "../../transport/http/http-features.ts";

const METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "notifications/initialized",
  "notifications/cancelled",
]);

export const createMetrics: NonNullable<HttpFeatures["createMetrics"]> = async (server, gauges, host, { port }) => {
  const client = await import("prom-client");
  const register = new client.Registry();
  client.collectDefaultMetrics({ register });
  const requests = new client.Counter({
    name: "mcp_requests_total",
    help: "MCP messages received over HTTP, by JSON-RPC method, tool (tools/call) and outcome",
    labelNames: ["method", "tool", "outcome"],
    registers: [register],
  });
  const duration = new client.Histogram({
    name: "mcp_request_duration_seconds",
    help: "Time from receiving an MCP request to the end of its answer",
    labelNames: ["method", "tool"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [register],
  });
  const errors = new client.Counter({
    name: "mcp_errors_total",
    help: "JSON-RPC errors answered, by error code",
    labelNames: ["code"],
    registers: [register],
  });
  const upstream = new client.Counter({
    name: "mcp_upstream_requests_total",
    help: "Requests to the upstream API, by tool (or resource) and HTTP status (error: no answer)",
    labelNames: ["target", "status"],
    registers: [register],
  });
  const upstreamDuration = new client.Histogram({
    name: "mcp_upstream_duration_seconds",
    help: "Time the upstream API took to answer",
    labelNames: ["target"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [register],
  });
  new client.Gauge({
    name: "mcp_sessions",
    help: "2025-era sessions this instance holds",
    registers: [register],
    collect() {
      this.set(gauges.sessions());
    },
  });
  new client.Gauge({
    name: "mcp_open_streams",
    help: "SSE streams open on this instance",
    registers: [register],
    collect() {
      this.set(gauges.streams());
    },
  });
  const serve = async (res: ServerResponse) => {
    const body = await register.metrics();
    res.writeHead(200, { "Content-Type": register.contentType, "Cache-Control": "no-store" });
    res.end(body);
  };
  // Loaded only for a port of its own: a stdio server with the feature loads no node:http.
  if (port !== undefined) await (await import("./metrics-port.ts")).serveMetricsPort(server, serve, port, host);
  const toolLabel = (name: string | undefined) => (name === undefined ? "" : server.tools.has(name) ? name : "unknown");
  observeUpstreamWith((target, status, seconds) => {
    const label = server.tools.has(target) || target === "resource" ? target : "unknown";
    upstream.inc({ target: label, status: String(status) });
    upstreamDuration.observe({ target: label }, seconds);
  });
  return {
    request(record, status) {
      const method = record.method === undefined ? "response" : METHODS.has(record.method) ? record.method : "other";
      const tool = toolLabel(record.tool);
      const outcome =
        record.errorCode !== undefined ? "error" : record.toolError ? "tool_error" : status >= 400 ? "refused" : "ok";
      requests.inc({ method, tool, outcome });
      duration.observe({ method, tool }, (performance.now() - record.started) / 1000);
      if (record.errorCode !== undefined) errors.inc({ code: String(record.errorCode) });
    },
    ...(port === undefined ? { serve } : {}),
  };
};
