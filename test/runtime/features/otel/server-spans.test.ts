// The otel feature's pieces on a real server (runtime/server handleRequest, 2026 era) exporting to a real OTLP/HTTP
// receiver on 127.0.0.1: the server span's parent, name, attributes and error type; what is never recorded; the
// standard variables (endpoint, sampler); and --otel-capture-args without --otel.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { otelFeature } from "../../../../runtime/features/otel/feature.ts";
import { serverInstrument } from "../../../../runtime/features/otel/server-spans.ts";
import { tracedStore } from "../../../../runtime/features/otel/store-spans.ts";
import { startTracing, tracesEndpoint } from "../../../../runtime/features/otel/tracing.ts";
import { createServer, type McpServer } from "../../../../runtime/index.ts";
import type { Instrument, SharedStore } from "../../../../runtime/package/feature.ts";
import { modernMeta } from "../../helpers.ts";
import { startOtlpReceiver } from "./otlp-receiver.ts";

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
const env = () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`, OTEL_BSP_SCHEDULE_DELAY: "20" });

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

function build(): McpServer {
  const server = createServer({ name: "unit", version: "1.0.0" });
  server.tool({
    name: "double",
    inputSchema: { type: "object" },
    handler: (args) => ({ structuredContent: { n: Number(args.n) * 2 } }),
  });
  server.tool({
    name: "fails",
    inputSchema: { type: "object" },
    handler: () => ({ isError: true, content: [{ type: "text", text: "no" }] }),
  });
  return server;
}

let nextId = 1;
function call(server: McpServer, instrument: Instrument, params: Record<string, unknown>, meta = {}) {
  const request = {
    jsonrpc: "2.0" as const,
    id: nextId++,
    method: "tools/call",
    params: { ...params, _meta: { ...modernMeta({}), ...meta } },
  };
  const channel = { signal: new AbortController().signal, notify: () => {} };
  return instrument.request(request, channel, () => server.handleRequest(request, channel));
}

const spanOf = (id: number) =>
  receiver.waitFor((span) => span.service === "unit" && span.attributes["jsonrpc.request.id"] === String(id));

describe("the server span", () => {
  const server = build();
  let plain: Instrument;
  let capturing: Instrument;
  beforeAll(() => {
    const ready = startTracing({ serviceName: "unit", env: env() });
    plain = serverInstrument(ready, { transport: "pipe", captureArgs: false });
    capturing = serverInstrument(ready, { transport: "pipe", captureArgs: true });
  });

  test("continues _meta.traceparent, named and attributed as the MCP conventions say, no argument values", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const id = nextId;
    const result = await call(server, plain, { name: "double", arguments: { n: 21 } }, { traceparent });
    expect(result.structuredContent).toEqual({ n: 42 });
    const span = await spanOf(id);
    expect(span).toMatchObject({
      name: "tools/call double",
      kind: "server",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      parentSpanId: "00f067aa0ba902b7",
      status: 0,
    });
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": String(id),
      "network.transport": "pipe",
      "mcp.protocol.version": "2026-07-28",
      "gen_ai.tool.name": "double",
      "gen_ai.operation.name": "execute_tool",
    });
  });

  test("a malformed traceparent starts a new trace; the call is answered as usual", async () => {
    for (const traceparent of ["garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", 42]) {
      const id = nextId;
      const result = await call(server, plain, { name: "double", arguments: { n: 1 } }, { traceparent });
      expect(result.structuredContent).toEqual({ n: 2 });
      const span = await spanOf(id);
      expect(span.parentSpanId).toBe("");
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.traceId).not.toBe("00000000000000000000000000000000");
    }
  });

  test("a JSON-RPC error sets error.type and rpc.response.status_code to its code; isError sets tool_error", async () => {
    const unknown = nextId;
    await expect(call(server, plain, { name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect((await spanOf(unknown)).attributes).toMatchObject({
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
    expect((await spanOf(unknown)).status).toBe(2);
    const failing = nextId;
    const result = await call(server, plain, { name: "fails", arguments: {} });
    expect(result.isError).toBe(true);
    const span = await spanOf(failing);
    expect(span.attributes["error.type"]).toBe("tool_error");
    expect(span.status).toBe(2);
  });

  test("--otel-capture-args records the arguments (and only then)", async () => {
    const id = nextId;
    await call(server, capturing, { name: "double", arguments: { n: 5 } });
    expect((await spanOf(id)).attributes["gen_ai.tool.call.arguments"]).toBe('{"n":5}');
  });

  test("a feature's step runs in a child span of the request's (Instrument.span)", async () => {
    const id = nextId;
    const request = { jsonrpc: "2.0" as const, id: nextId++, method: "ping", params: { _meta: modernMeta({}) } };
    const channel = { signal: new AbortController().signal, notify: () => {} };
    await plain.request(request, channel, () => plain.span("step", { answer: 42 }, async () => ({})));
    const parent = await spanOf(id);
    const step = await receiver.waitFor((span) => span.name === "step");
    expect(step).toMatchObject({ parentSpanId: parent.spanId, traceId: parent.traceId, kind: "internal" });
    expect(step.attributes).toEqual({ answer: 42 });
  });

  test("the task store's round trips are spans under the request, without keys or values", async () => {
    const data = new Map<string, string>();
    const store: SharedStore = {
      get: async (key) => data.get(key),
      set: async (key, value) => void data.set(key, value),
      add: async () => {},
      members: async () => [],
    };
    const traced = tracedStore(store, plain);
    const id = nextId;
    const request = { jsonrpc: "2.0" as const, id: nextId++, method: "ping", params: { _meta: modernMeta({}) } };
    const channel = { signal: new AbortController().signal, notify: () => {} };
    await plain.request(request, channel, async () => {
      await traced.set("task:secret-key", "secret-value", 1000);
      expect(await traced.get("task:secret-key")).toBe("secret-value");
      return {};
    });
    const parent = await spanOf(id);
    const set = await receiver.waitFor((span) => span.name === "redis set" && span.parentSpanId === parent.spanId);
    const get = await receiver.waitFor((span) => span.name === "redis get" && span.parentSpanId === parent.spanId);
    expect(set.attributes).toEqual({ "db.system.name": "redis", "db.operation.name": "set" });
    expect(JSON.stringify([set, get])).not.toContain("secret");
  });
});

describe("OpenTelemetry's variables", () => {
  test("the traces endpoint: the traces-specific one as given, else the base plus /v1/traces, else none", () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/custom" })).toBe("http://c:4318/custom");
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318//" })).toBe("http://c:4318/v1/traces");
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeUndefined();
    expect(tracesEndpoint({})).toBeUndefined();
  });

  test("OTEL_TRACES_SAMPLER=always_off: spans are not recorded, yet their ids are made and propagated unsampled", async () => {
    const tracing = await startTracing({ serviceName: "off", env: { OTEL_TRACES_SAMPLER: "always_off" } });
    expect(tracing.endpoint).toBeUndefined();
    const span = tracing.tracer.startSpan("x");
    expect(span.isRecording()).toBe(false);
    const headers: Record<string, string> = {};
    tracing.traceContext.inject(tracing.api.trace.setSpan(tracing.api.ROOT_CONTEXT, span), headers, {
      set: (carrier, key, value) => {
        carrier[key] = value;
      },
    });
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });

  test("an unknown sampler is named in a warning and the default is used", async () => {
    const warnings: string[] = [];
    const tracing = await startTracing({
      serviceName: "x",
      env: { OTEL_TRACES_SAMPLER: "sometimes" },
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toEqual([expect.stringContaining("OTEL_TRACES_SAMPLER=sometimes is not a sampler")]);
    expect(tracing.tracer.startSpan("y").isRecording()).toBe(true);
  });

  test("--otel-capture-args without --otel is a usage error; without either, the feature adds nothing", () => {
    const input = (values: Record<string, unknown>) =>
      ({ values, sources: { "otel-capture-args": "--otel-capture-args" }, http: false, env: {} }) as never;
    expect(otelFeature.configure?.(input({ "otel-capture-args": true }))).toBe(
      "--otel-capture-args records tool arguments in spans: it needs --otel (MCP_OTEL=1)",
    );
    expect(otelFeature.configure?.(input({}))).toEqual({});
  });
});
