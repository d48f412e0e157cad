/**
 * Tracing end to end (issue 35), every part a real process: a generated client (its own process, its spans
 * exported by startTracing) calls a generated weather server run with --otel, which calls a real upstream;
 * both export over OTLP/HTTP (JSON) to a receiver on 127.0.0.1. One trace: client span -> server span ->
 * upstream span, and the upstream saw that trace in its `traceparent`. Both eras over HTTP, and stdio.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpgen } from "../../../cli/run.ts";
import {
  type RecordedRequest,
  ROOT,
  type RunningHttpServer,
  scratchDir,
  startHttpServer,
  startUpstream,
} from "../../../generate/support.ts";
import { type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.ts";

const CLIENT_SCRIPT = `import { connect, startTracing } from "./src/client.ts";
const config = JSON.parse(process.argv[2]);
const tracing = config.trace ? await startTracing({ serviceName: "agent" }) : undefined;
const client = await connect(config.target, config.protocolVersion ? { protocolVersion: config.protocolVersion } : {});
const options = config.meta ? { meta: config.meta } : {};
const result = config.tool
  ? await client.request("tools/call", { name: config.tool, arguments: config.args }, options)
  : await client.callTool("get_forecast", { city: "Paris" }, options);
await client.close();
await tracing?.flush();
const text = config.tool ? result.content?.[0]?.text : undefined;
process.stdout.write(JSON.stringify({ era: client.era, isError: result.isError === true, city: result.structuredContent?.city, ...(text ? { text } : {}) }));
`;

type ClientRun = { era: string; isError: boolean; city?: string; text?: string };

describe("--otel: one trace from the client through the server to the upstream", () => {
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningHttpServer;
  let url: string; // the server's, from its JSON "listening on" line
  const serverEnv = () => ({
    WEATHER_TOKEN: "weather-secret-token",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: "",
  });

  beforeAll(async () => {
    dir = scratchDir("otel");
    const run = mcpgen(
      ROOT,
      "generate",
      join(ROOT, "specs/weather.yaml"),
      "--out",
      dir,
      "--features",
      "otel,code,dynamic",
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    writeFileSync(join(dir, "client-run.ts"), CLIENT_SCRIPT);
    receiver = await startOtlpReceiver();
    upstream = await startUpstream({
      "GET /forecast/*": () => ({
        json: { city: "Paris", days: [{ date: "2026-07-01", highC: 24, lowC: 15, summary: "sunny-spells" }] },
      }),
    });
    server = await startHttpServer(dir, ["--otel", "--log-format", "json", "--base-url", upstream.url], serverEnv());
    url = server.url.split('"')[0];
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await receiver?.close();
  });

  /** Runs the generated client in its own process; `trace`: with startTracing exporting to the receiver. */
  async function runClient(config: Record<string, unknown>): Promise<ClientRun> {
    const child = spawn(process.execPath, ["--import", "tsx", join(dir, "client-run.ts"), JSON.stringify(config)], {
      cwd: ROOT,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "agent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const [code] = await once(child, "exit");
    expect(code, stderr).toBe(0);
    return JSON.parse(stdout) as ClientRun;
  }

  /** The client span of the trace just made, and the server and upstream spans under it. */
  async function traceOf(clientSpan: ReceivedSpan, service = "weather") {
    const serverSpan = await receiver.waitFor((s) => s.parentSpanId === clientSpan.spanId && s.service === service);
    const upstreamSpan = await receiver.waitFor((s) => s.parentSpanId === serverSpan.spanId);
    return { serverSpan, upstreamSpan };
  }

  const lastUpstreamCall = (): RecordedRequest => upstream.requests[upstream.requests.length - 1];
  const seen = new Set<string>();
  const newClientSpan = async () => {
    const span = await receiver.waitFor(
      (s) => s.service === "agent" && s.name === "tools/call get_forecast" && !seen.has(s.spanId),
    );
    seen.add(span.spanId);
    return span;
  };

  for (const [era, protocolVersion, wire] of [
    ["2026 (stateless)", undefined, "modern"],
    ["2025 (initialize, sessions)", "2025-11-25", "legacy"],
  ] as const) {
    it(`${era} over HTTP: client span -> server span -> upstream span, one trace id, named as the conventions say`, async () => {
      const before = upstream.requests.length;
      const run = await runClient({ trace: true, target: { url }, protocolVersion });
      expect(run).toEqual({ era: wire, isError: false, city: "Paris" });
      const clientSpan = await newClientSpan();
      const { serverSpan, upstreamSpan } = await traceOf(clientSpan);

      expect(clientSpan.name).toBe("tools/call get_forecast");
      expect(clientSpan.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_forecast",
        "gen_ai.operation.name": "execute_tool",
        "network.transport": "tcp",
        "server.address": "127.0.0.1",
      });
      expect(serverSpan).toMatchObject({
        name: "tools/call get_forecast",
        kind: "server",
        traceId: clientSpan.traceId,
      });
      expect(serverSpan.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_forecast",
        "gen_ai.operation.name": "execute_tool",
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "mcp.protocol.version": protocolVersion ?? "2026-07-28",
      });
      expect(typeof serverSpan.attributes["jsonrpc.request.id"]).toBe("string");
      if (protocolVersion) expect(serverSpan.attributes["mcp.session.id"]).toMatch(/^\S+$/);
      else expect(serverSpan.attributes).not.toHaveProperty("mcp.session.id");
      expect(upstreamSpan).toMatchObject({ name: "GET /forecast/{city}", kind: "client", traceId: clientSpan.traceId });
      expect(upstreamSpan.attributes).toMatchObject({
        "http.request.method": "GET",
        "http.response.status_code": 200,
        "url.template": "/forecast/{city}",
        "server.address": "127.0.0.1",
      });

      // The upstream saw the same trace, its parent the upstream span; one call for this run.
      expect(upstream.requests.length).toBe(before + 1);
      expect(lastUpstreamCall().headers.traceparent).toBe(`00-${clientSpan.traceId}-${upstreamSpan.spanId}-01`);
      // No argument value, result or token in any span (no --otel-capture-args).
      const text = JSON.stringify([clientSpan, serverSpan, upstreamSpan]);
      for (const secret of ["Paris", "weather-secret-token", "sunny-spells"]) expect(text).not.toContain(secret);
      // JSON log lines carry the trace: the access line of this POST names the server span.
      expect(server.stderr()).toContain(`"trace_id":"${clientSpan.traceId}","span_id":"${serverSpan.spanId}"`);
    });
  }

  it("over stdio: the same tree, network.transport pipe; the server sends its spans before it exits", async () => {
    const target = {
      command: process.execPath,
      args: ["--import", "tsx", join(dir, "src/server.ts"), "--otel", "--base-url", upstream.url],
      // No batch would leave within the test: the spans arrive because the server flushes them on exit.
      // And OTLP's JSON encoding, where the HTTP server above sends the default, protobuf.
      env: {
        ...process.env,
        ...serverEnv(),
        OTEL_BSP_SCHEDULE_DELAY: "600000",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      },
      cwd: ROOT,
    };
    const run = await runClient({ trace: true, target });
    expect(run).toEqual({ era: "modern", isError: false, city: "Paris" });
    const clientSpan = await newClientSpan();
    const { serverSpan, upstreamSpan } = await traceOf(clientSpan);
    expect(clientSpan.attributes["network.transport"]).toBe("pipe");
    expect(serverSpan.attributes).toMatchObject({ "network.transport": "pipe", "gen_ai.tool.name": "get_forecast" });
    expect(lastUpstreamCall().headers.traceparent).toBe(`00-${clientSpan.traceId}-${upstreamSpan.spanId}-01`);
    expect(receiver.contentTypes).toEqual(expect.arrayContaining(["application/x-protobuf", "application/json"]));
  });

  it("an HTTP server stopped by SIGTERM sends the spans still batched before it exits", async () => {
    const env = { ...serverEnv(), OTEL_BSP_SCHEDULE_DELAY: "600000", OTEL_SERVICE_NAME: "weather-stopping" };
    const stopping = await startHttpServer(dir, ["--otel", "--base-url", upstream.url], env);
    await runClient({ trace: false, target: { url: stopping.url } });
    expect(receiver.spans.filter((s) => s.service === "weather-stopping")).toEqual([]);
    await stopping.stop();
    const span = await receiver.waitFor(
      (s) => s.service === "weather-stopping" && s.name === "tools/call get_forecast",
    );
    expect(span.kind).toBe("server");
  });

  it("a malformed _meta.traceparent starts a new trace, and the call still works", async () => {
    const before = new Set(receiver.spans.map((s) => s.spanId));
    const run = await runClient({
      trace: false,
      target: { url },
      meta: { traceparent: "00-not-a-trace-id-zz", tracestate: "x" },
    });
    expect(run).toEqual({ era: "modern", isError: false, city: "Paris" });
    const serverSpan = await receiver.waitFor(
      (s) => s.name === "tools/call get_forecast" && s.kind === "server" && !before.has(s.spanId),
    );
    expect(serverSpan.parentSpanId).toBe("");
    expect(serverSpan.traceId).toMatch(/^[0-9a-f]{32}$/);
    const upstreamSpan = await receiver.waitFor((s) => s.parentSpanId === serverSpan.spanId);
    expect(lastUpstreamCall().headers.traceparent).toBe(`00-${serverSpan.traceId}-${upstreamSpan.spanId}-01`);
  });

  it("a gateway's HTTP traceparent is the parent when _meta has none; with both, _meta wins and the HTTP one is a link", async () => {
    const gatewayTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const gatewaySpan = "00f067aa0ba902b7";
    const headers = { traceparent: `00-${gatewayTrace}-${gatewaySpan}-01` };
    await runClient({ trace: false, target: { url, headers } });
    const fromHeader = await receiver.waitFor((s) => s.kind === "server" && s.parentSpanId === gatewaySpan);
    expect(fromHeader.traceId).toBe(gatewayTrace);

    const clientTrace = "0af7651916cd43dd8448eb211c80319c";
    const clientSpan = "b7ad6b7169203331";
    await runClient({
      trace: false,
      target: { url, headers },
      meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` },
    });
    const fromMeta = await receiver.waitFor((s) => s.kind === "server" && s.parentSpanId === clientSpan);
    expect(fromMeta.traceId).toBe(clientTrace);
    expect(fromMeta.links).toEqual([expect.objectContaining({ traceId: gatewayTrace, spanId: gatewaySpan })]);
  });

  it("code mode: execute's sandbox run and each bridged call are spans between the server span and the upstream's", async () => {
    const coded = await startHttpServer(dir, ["--otel", "--mode", "code", "--base-url", upstream.url], serverEnv());
    try {
      const code = 'const a = await api.get_forecast({ city: "Paris" }); return a.city;';
      const run = await runClient({ trace: true, target: { url: coded.url }, tool: "execute", args: { code } });
      expect(run).toMatchObject({ isError: false });
      expect(run.text).toContain("Paris");
      const clientSpan = await receiver.waitFor((s) => s.service === "agent" && s.name === "tools/call execute");
      const serverSpan = await receiver.waitFor((s) => s.parentSpanId === clientSpan.spanId);
      expect(serverSpan).toMatchObject({ name: "tools/call execute", kind: "server" });
      const executeSpan = await receiver.waitFor((s) => s.parentSpanId === serverSpan.spanId);
      expect(executeSpan).toMatchObject({ name: "code execute", kind: "internal" });
      const callSpan = await receiver.waitFor((s) => s.parentSpanId === executeSpan.spanId);
      expect(callSpan).toMatchObject({ name: "code call get_forecast", kind: "internal" });
      const upstreamSpan = await receiver.waitFor((s) => s.parentSpanId === callSpan.spanId);
      expect(upstreamSpan).toMatchObject({ name: "GET /forecast/{city}", traceId: clientSpan.traceId });
      expect(lastUpstreamCall().headers.traceparent).toBe(`00-${clientSpan.traceId}-${upstreamSpan.spanId}-01`);
    } finally {
      await coded.stop();
    }
  });

  it("dynamic mode: call_tool's span names the tool it runs; that tool's own span is its child, the upstream span the tool's", async () => {
    const dynamic = await startHttpServer(
      dir,
      ["--otel", "--mode", "dynamic", "--base-url", upstream.url],
      serverEnv(),
    );
    try {
      const args = { name: "get_forecast", arguments: { city: "Paris" } };
      // 2025 era: a raw tools/call of call_tool sends no Mcp-Param-City header, which 2026 asks of get_forecast's.
      const target = { url: dynamic.url };
      const run = await runClient({ trace: true, target, tool: "call_tool", args, protocolVersion: "2025-11-25" });
      expect(run).toMatchObject({ isError: false });
      const clientSpan = await receiver.waitFor((s) => s.service === "agent" && s.name === "tools/call call_tool");
      const serverSpan = await receiver.waitFor((s) => s.parentSpanId === clientSpan.spanId);
      expect(serverSpan.attributes).toMatchObject({
        "gen_ai.tool.name": "call_tool",
        "mcpgen.tool.forwarded_to": "get_forecast",
      });
      const inner = await receiver.waitFor((s) => s.parentSpanId === serverSpan.spanId);
      expect(inner).toMatchObject({ name: "tools/call get_forecast", kind: "internal" });
      expect(inner.attributes).toMatchObject({ "gen_ai.tool.name": "get_forecast" });
      const upstreamSpan = await receiver.waitFor((s) => s.parentSpanId === inner.spanId);
      expect(upstreamSpan.attributes["mcpgen.upstream.target"]).toBe("get_forecast");
    } finally {
      await dynamic.stop();
    }
  });

  it("spans went out as OTLP/HTTP protobuf by default, and as JSON where OTEL_EXPORTER_OTLP_PROTOCOL says http/json", () => {
    expect(new Set(receiver.contentTypes)).toEqual(new Set(["application/x-protobuf", "application/json"]));
  });
});
