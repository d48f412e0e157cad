// The generated client's spans (the `otel` feature; src/client.ts imports this only with it): a CLIENT span per
// request (the semantic conventions for MCP), whose context goes to the server in `_meta` as `traceparent`,
// `tracestate` and `baggage` (SEP-414). Spans use the global OpenTelemetry API: without an SDK (the application's,
// or startTracing()'s) they are not recording and nothing is added to `_meta` or sent anywhere.
import {
  type Attributes,
  context,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { McpClient } from "../../client/client.ts";
import { McpError } from "../../protocol/errors.ts";
import type { JsonObject, Result } from "../../protocol/types.ts";

export { startTracing, type Tracing, type TracingOptions } from "./tracing.ts";

/** W3C Trace Context and Baggage: what `_meta` carries, whatever propagator the application registered. */
const propagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});
const setter: TextMapSetter<JsonObject> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

type Request = McpClient["request"];

/** The client, each request (tool calls, reads, lists ...) sent inside its own CLIENT span. */
export function traced<C>(client: C, target: { url?: string | URL } | object): C {
  const mcp = client as unknown as McpClient;
  const send: Request = mcp.request.bind(mcp);
  const tracer = trace.getTracer("mcpgen-client");
  const where = whereOf(target);
  const request = async (method: string, params: JsonObject = {}, options: Parameters<Request>[2] = {}) => {
    const name = method === "tools/call" || method === "prompts/get" ? params.name : undefined;
    const attributes: Attributes = { "mcp.method.name": method, ...where };
    if (mcp.protocolVersion) attributes["mcp.protocol.version"] = mcp.protocolVersion;
    if (typeof name === "string") {
      attributes[method === "tools/call" ? "gen_ai.tool.name" : "gen_ai.prompt.name"] = name;
      if (method === "tools/call") attributes["gen_ai.operation.name"] = "execute_tool";
    }
    const parent = context.active();
    const span = tracer.startSpan(typeof name === "string" ? `${method} ${name}` : method, {
      kind: SpanKind.CLIENT,
      attributes,
    });
    const active = trace.setSpan(parent, span);
    const meta: JsonObject = { ...options.meta };
    if (isSpanContextValid(span.spanContext())) propagator.inject(active, meta, setter);
    try {
      const result: Result = await context.with(active, () => send(method, params, { ...options, meta }));
      if (result.isError === true) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return result;
    } catch (error) {
      const code = error instanceof McpError ? String(error.code) : undefined;
      span.setAttribute("error.type", code ?? ((error as Error)?.name || "_OTHER"));
      if (code) span.setAttribute("rpc.response.status_code", code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  };
  mcp.request = request as Request;
  return client;
}

/** server.address and port over HTTP (never the URL's path or query), `pipe` over stdio. */
function whereOf(target: { url?: string | URL } | object): Attributes {
  const url = "url" in target && target.url !== undefined ? new URL(target.url) : undefined;
  if (!url) return { "network.transport": "pipe" };
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  return {
    "network.transport": "tcp",
    "network.protocol.name": "http",
    "server.address": url.hostname,
    "server.port": port,
  };
}
