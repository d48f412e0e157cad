// The server's spans (--otel), named as OpenTelemetry's semantic conventions for MCP name them: one SERVER span per
// request, whose parent is the client's context from `_meta` (SEP-414), else the HTTP `traceparent` a gateway set
// (then only linked), and one CLIENT span per upstream call, whose context goes upstream in the W3C headers.
// No argument value, result or token goes into an attribute unless --otel-capture-args opts in to arguments.
import type * as Api from "@opentelemetry/api";
import type { Instrument, TracedCall } from "../../package/feature.ts";
import { isObject } from "../../protocol/codec.ts";
import { MetaKey } from "../../protocol/constants.ts";
import { McpError } from "../../protocol/errors.ts";
import type { JsonObject, JsonRpcRequest, Result } from "../../protocol/types.ts";
import { addLogContext, boundLogValue } from "../../server/log.ts";
import type { RequestChannel } from "../../server/types.ts";
import type { UpstreamResponse } from "../../upstream/types.ts";
import type { Tracing } from "./tracing.ts";

export type SpanOptions = { transport: "tcp" | "pipe"; captureArgs: boolean };

/** Characters of arguments --otel-capture-args records at most. */
const MAX_ARGS_CHARS = 4096;

/** How long a server that is stopping waits for the requests it traces to end before it sends their spans. */
const DRAIN_MS = 5_000;

/** The hooks the core calls; until the SDK has loaded (a few ms after start) a request waits for it. `idle`: a
 * promise settled once no traced request is running (or after 5 s), after which the last spans can be sent. */
export function serverInstrument(
  ready: Promise<Tracing | undefined>,
  options: SpanOptions,
): Instrument & {
  idle(): Promise<void>;
  early: EarlySpans;
} {
  let tracing: Tracing | undefined;
  let loaded = false;
  let running = 0;
  let onIdle: (() => void) | undefined;
  const counted = <T>(work: Promise<T>) => {
    running++;
    return work.finally(() => {
      if (--running === 0) onIdle?.();
    });
  };
  const settled = ready.then((value) => {
    [tracing, loaded] = [value, true];
    if (value) addLogContext(() => activeIds(value.api));
    return value;
  });
  const when = <T>(run: (tracing: Tracing) => Promise<T>, plain: () => Promise<T>) =>
    loaded ? (tracing ? run(tracing) : plain()) : settled.then((value) => (value ? run(value) : plain()));
  return {
    request: (request, channel, handle) =>
      counted(when((t) => requestSpan(t, options, request, channel, handle), handle)),
    early: {
      open: (request, traceparent, run) => counted(when((t) => earlySpan(t, options, request, traceparent, run), run)),
      within: () => tracing !== undefined && tracing.api.trace.getSpan(tracing.api.context.active()) !== undefined,
    },
    idle: () =>
      running === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onIdle = resolve;
            setTimeout(resolve, DRAIN_MS).unref();
          }),
    upstream: (call, send) =>
      when(
        (t) => upstreamSpan(t, call, send),
        () => send({}),
      ),
    span: (name, attributes, run) => (tracing ? innerSpan(tracing, name, attributes, run) : run()),
    // Requests wait for the SDK above, so by the time a feature binds a callback within one it has loaded.
    bind: (fn) => (tracing ? tracing.api.context.bind(tracing.api.context.active(), fn) : fn),
  };
}

/** An INTERNAL span around a feature's own step, a child of the active span; a CLIENT one for a Redis round trip
 * (a `db.system.name`: the database conventions' kind). */
async function innerSpan<T>(t: Tracing, name: string, attributes: Api.Attributes, run: () => Promise<T>): Promise<T> {
  const kind = attributes["db.system.name"] ? t.api.SpanKind.CLIENT : t.api.SpanKind.INTERNAL;
  const span = t.tracer.startSpan(name, { kind, attributes });
  try {
    return await t.api.context.with(t.api.trace.setSpan(t.api.context.active(), span), run);
  } catch (error) {
    span.setAttribute("error.type", (error as Error)?.name || "_OTHER");
    span.setStatus({ code: t.api.SpanStatusCode.ERROR }); // its message may hold anything the step saw
    throw error;
  } finally {
    span.end();
  }
}

/** The trace and span ids of the active span, for JSON log lines. */
function activeIds(api: typeof Api): Record<string, string> | undefined {
  const span = api.trace.getSpan(api.context.active())?.spanContext();
  return span && api.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
}

const getter: Api.TextMapGetter<JsonObject> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (typeof carrier[key] === "string" ? (carrier[key] as string) : undefined),
};

const setter: Api.TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** The parent from `_meta` (traceparent, tracestate, baggage); a malformed one gives none, so a new trace starts. */
function remoteParent(t: Tracing, carrier: JsonObject | undefined): Api.Context | undefined {
  if (!carrier || typeof carrier.traceparent !== "string") return undefined;
  const extracted = t.propagator.extract(t.api.ROOT_CONTEXT, carrier, getter);
  const span = t.api.trace.getSpanContext(extracted);
  return span && t.api.isSpanContextValid(span) ? extracted : undefined;
}

/** --session-store: a 2025-era request's span, opened before its session is looked up in Redis so that the round
 * trips are in it (session-spans.ts); the core's request hook then finds it open (requestSpan) and this ends it. */
export type EarlySpans = {
  open(request: JsonRpcRequest, traceparent: string | undefined, run: () => Promise<void>): Promise<void>;
  within(): boolean; // whether a span is active: a store's work outside any request (a sweep) is not traced
};

/** Spans opened by `early.open` for requests not yet handled, by request. */
const opened = new WeakMap<JsonRpcRequest, Api.Span>();

async function earlySpan(
  t: Tracing,
  options: SpanOptions,
  request: JsonRpcRequest,
  traceparent: string | undefined,
  run: () => Promise<void>,
): Promise<void> {
  const { span, parent } = startRequestSpan(t, options, request, { traceparent });
  opened.set(request, span);
  try {
    await t.api.context.with(t.api.trace.setSpan(parent, span), run);
  } finally {
    opened.delete(request);
    span.end();
  }
}

async function requestSpan(
  t: Tracing,
  options: SpanOptions,
  request: JsonRpcRequest,
  channel: RequestChannel,
  handle: () => Promise<Result>,
): Promise<Result> {
  const { api } = t;
  const early = opened.get(request);
  // An early span (above) learns the session now and ends when the transport is done with the request.
  if (early) early.setAttributes(sessionAttributes(channel, metaOf(request), options));
  const { span, parent } = early
    ? { span: early, parent: api.context.active() }
    : startRequestSpan(t, options, request, channel);
  const ids = span.spanContext();
  if (channel.record) channel.record.trace = { trace_id: ids.traceId, span_id: ids.spanId };
  try {
    const result = await api.context.with(api.trace.setSpan(parent, span), handle);
    if (result.isError === true) {
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    return result;
  } catch (error) {
    const code = error instanceof McpError ? String(error.code) : undefined;
    span.setAttribute("error.type", code ?? "_OTHER");
    if (code) span.setAttribute("rpc.response.status_code", code);
    // The JSON-RPC error's message, which the client gets too (the conventions); no other error's text.
    span.setStatus({ code: api.SpanStatusCode.ERROR, ...(code ? { message: (error as Error).message } : {}) });
    throw error;
  } finally {
    if (!early) span.end();
  }
}

const metaOf = ({ params }: JsonRpcRequest) => (isObject(params?._meta) ? params._meta : undefined);

/** The request's SERVER span and the context it continues. */
function startRequestSpan(
  t: Tracing,
  options: SpanOptions,
  request: JsonRpcRequest,
  channel: Pick<RequestChannel, "traceparent" | "session">,
) {
  const { api } = t;
  const meta = metaOf(request);
  const fromMeta = remoteParent(t, meta);
  const fromHttp = channel.traceparent ? remoteParent(t, { traceparent: channel.traceparent }) : undefined;
  const parent = fromMeta ?? fromHttp ?? api.ROOT_CONTEXT;
  // The conventions: the `_meta` context is the parent, the transport's (HTTP) one only a link.
  const httpSpan = fromMeta && fromHttp ? api.trace.getSpanContext(fromHttp) : undefined;
  const { name, attributes } = describe(request, channel, meta, options);
  const span = t.tracer.startSpan(
    name,
    { kind: api.SpanKind.SERVER, attributes, ...(httpSpan ? { links: [{ context: httpSpan }] } : {}) },
    parent,
  );
  return { span, parent };
}

/** The span's name (`{mcp.method.name} {target}`) and attributes. Names the client chose are cut to 128 characters. */
function describe(
  request: JsonRpcRequest,
  channel: Pick<RequestChannel, "session">,
  meta: JsonObject | undefined,
  options: SpanOptions,
) {
  const params = request.params ?? {};
  const method = boundLogValue(request.method);
  const attributes: Api.Attributes = {
    "mcp.method.name": method,
    "jsonrpc.request.id": String(request.id),
    "network.transport": options.transport,
  };
  if (options.transport === "tcp") attributes["network.protocol.name"] = "http";
  Object.assign(attributes, sessionAttributes(channel, meta, options));
  let target: string | undefined;
  if (request.method === "tools/call" && typeof params.name === "string") {
    target = boundLogValue(params.name);
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
    // Dynamic mode's call_tool runs another tool (server/features.ts forwardedCall): its name, never its arguments.
    const inner = isObject(params.arguments) ? params.arguments.name : undefined;
    if (target === "call_tool" && typeof inner === "string")
      attributes["mcpgen.tool.forwarded_to"] = boundLogValue(inner);
    if (options.captureArgs && params.arguments !== undefined)
      attributes["gen_ai.tool.call.arguments"] = boundLogValue(JSON.stringify(params.arguments), MAX_ARGS_CHARS);
  } else if (request.method === "prompts/get" && typeof params.name === "string") {
    target = boundLogValue(params.name);
    attributes["gen_ai.prompt.name"] = target;
  } else if (options.captureArgs && typeof params.uri === "string" && request.method.startsWith("resources/")) {
    // A template's URI holds the caller's values (weather://city/Paris): recorded only when arguments are.
    attributes["mcp.resource.uri"] = boundLogValue(params.uri, 1024); // in an attribute, never the span name
  }
  return { name: target ? `${method} ${target}` : method, attributes };
}

/** What the request's session says: known only once it is looked up (an early span learns it then). */
function sessionAttributes(
  channel: Pick<RequestChannel, "session">,
  meta: JsonObject | undefined,
  options: SpanOptions,
): Api.Attributes {
  const attributes: Api.Attributes = {};
  const version = meta?.[MetaKey.protocolVersion] ?? channel.session?.protocolVersion;
  if (typeof version === "string") attributes["mcp.protocol.version"] = boundLogValue(version);
  if (options.transport === "tcp" && channel.session) attributes["mcp.session.id"] = channel.session.id;
  return attributes;
}

/** The upstream call's CLIENT span (HTTP client conventions): no URL query or body, only where it went. */
async function upstreamSpan(
  t: Tracing,
  { target, binding, upstream, call }: TracedCall,
  send: (headers: Record<string, string>) => Promise<UpstreamResponse>,
): Promise<UpstreamResponse> {
  const { api } = t;
  const method = (call.url ? (call.method ?? "GET") : binding.method).toUpperCase();
  const base = binding.baseUrl && !upstream.pinned ? binding.baseUrl : upstream.baseUrl;
  const url = URL.canParse(call.url ?? "", base) ? new URL(call.url ?? "", base) : undefined;
  const template = call.url ? undefined : binding.path;
  const attributes: Api.Attributes = {
    "http.request.method": method,
    "mcpgen.upstream.target": target,
    ...(template ? { "url.template": template } : {}),
    ...(url
      ? { "server.address": url.hostname, "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80) }
      : {}),
  };
  const span = t.tracer.startSpan(template ? `${method} ${template}` : method, {
    kind: api.SpanKind.CLIENT,
    attributes,
  });
  const context = api.trace.setSpan(api.context.active(), span);
  const headers: Record<string, string> = {};
  t.traceContext.inject(context, headers, setter);
  try {
    const response = await api.context.with(context, () => send(headers));
    span.setAttribute("http.response.status_code", response.status);
    if (response.status >= 400) {
      span.setAttribute("error.type", String(response.status));
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    return response;
  } catch (error) {
    // No message: it names the URL's path, which holds argument values (upstream GET .../forecast/Paris failed).
    span.setAttribute("error.type", (error as Error)?.name || "_OTHER");
    span.setStatus({ code: api.SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
