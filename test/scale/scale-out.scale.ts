// Issue 18 end to end: three instances of the generated weather server behind nginx (the package's own
// deploy/nginx.conf) sharing a Redis session store, driven by official SDK v1 (2025-era sessions) and
// v2 (2026-era) clients and by mcpgen's own client in both eras. Every process is real and on 127.0.0.1.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect } from "../../runtime/client/client.ts";
import { type SseEvent, SseParser } from "../../runtime/transport/http/sse.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { connectSdkV1, connectSdkV2 } from "../interop/sdk-clients.ts";
import { modernHeaders, modernMeta } from "../runtime/helpers.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import { type Cluster, startCluster } from "./cluster.ts";
import { type RecordingUpstream, startRecordingUpstream } from "./recording-upstream.ts";

const LEGACY = "2025-11-25";
const TOTAL_CALLS = Number(process.env.SCALE_CALLS ?? 10_000);
const OUT = join(REPO_ROOT, "test/.out", `scale-${process.pid}`);
const PKG = join(OUT, "weather");

// convert_temperature is a handler (user-owned); this one also logs five steps 150 ms apart when asked
// for 451 degrees, so a 2025-era SSE answer has events to miss and resume.
const HANDLER = `import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { ConvertTemperatureInput, ConvertTemperatureOutput } from "../../types.ts";

export default async function toolConvertTemperature(
  args: ConvertTemperatureInput,
  ctx: SpecContext,
): Promise<ToolResult<ConvertTemperatureOutput>> {
  if (args.value === 451) {
    for (let step = 1; step <= 5; step++) {
      ctx.log("info", \`step \${step}\`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  const toF = args.from === "C";
  const value = toF ? (args.value * 9) / 5 + 32 : ((args.value - 32) * 5) / 9;
  return { structuredContent: { value: Math.round(value * 10) / 10, unit: toF ? "F" : "C" } };
}
`;

let redis: RedisServer;
let upstream: RecordingUpstream;
let cluster: Cluster;

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const mcpgen = join(REPO_ROOT, "bin/mcpgen.js");
  // The instances share their 2025-era sessions through Redis: the redis feature.
  const generate = ["generate", join(REPO_ROOT, "specs/weather.yaml"), "--out", PKG, "--features", "redis"];
  execFileSync(process.execPath, [mcpgen, ...generate]);
  writeFileSync(join(PKG, "src/handlers/tools/convert_temperature.ts"), HANDLER);
  execFileSync(process.execPath, [mcpgen, ...generate]);
  [redis, upstream] = await Promise.all([startRedis(), startRecordingUpstream()]);
  cluster = await startCluster(PKG, 3, {
    upstream: upstream.url,
    sessionStore: redis.url,
    args: ["--shutdown-grace", "300", "--shutdown-timeout", "10000"],
  });
});

afterAll(async () => {
  await cluster?.stop();
  await Promise.all([redis?.stop(), upstream?.close()]);
  rmSync(OUT, { recursive: true, force: true });
});

type Caller = {
  era: "2025" | "2026";
  call(name: string, args: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
};
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };

async function callers(url: string, eachKind: number): Promise<Caller[]> {
  const made: Array<Promise<Caller>> = [];
  for (let i = 0; i < eachKind; i++) {
    made.push(
      connectSdkV1({ kind: "http", url }).then((c) => ({
        era: "2025",
        call: async (name, args) => (await c.peer.callTool(name, args)) as Result,
        close: c.close,
      })),
      // SDK v2 learns which arguments travel as Mcp-Param headers from tools/list, so it lists first.
      connectSdkV2({ kind: "http", url }).then(async (c): Promise<Caller> => {
        await c.peer.listTools();
        return {
          era: "2026",
          call: async (name, args) => (await c.peer.callTool(name, args)) as Result,
          close: c.close,
        };
      }),
    );
    for (const protocolVersion of [LEGACY, undefined]) {
      made.push(
        connect({ url }, protocolVersion ? { protocolVersion } : {}).then((c) => ({
          era: protocolVersion ? "2025" : "2026",
          call: async (name, args) => (await c.callTool(name, args)) as Result,
          close: () => c.close(),
        })),
      );
    }
  }
  return await Promise.all(made);
}

/** One call of the mix (read-only handler, read-only upstream, non-idempotent, destructive), checked. */
async function mixedCall(caller: Caller, tag: string, i: number): Promise<void> {
  const key = `${tag}-${i}`;
  switch (i % 4) {
    case 0: {
      const result = await caller.call("convert_temperature", { value: i, from: "C" });
      expect(result.structuredContent).toEqual({ value: Math.round(((i * 9) / 5 + 32) * 10) / 10, unit: "F" });
      return;
    }
    case 1: {
      const result = await caller.call("get_forecast", { city: `f-${key}` });
      expect(result.structuredContent?.city).toBe(`f-${key}`);
      return;
    }
    case 2: {
      const result = await caller.call("report_observation", { station: `o-${key}`, temperatureC: 3 });
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      return;
    }
    default: {
      const result = await caller.call("reset_station", { station: `r-${key}` });
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    }
  }
}

/** Sessions (request Mcp-Session-Id) and the instances that answered them, from nginx's access log. */
function instancesBySession(accessLog: string): Map<string, { requests: number; instances: Set<string> }> {
  const bySession = new Map<string, { requests: number; instances: Set<string> }>();
  for (const line of readFileSync(accessLog, "utf8").split("\n")) {
    const [addresses, session] = line.split("|");
    if (!session || session === "-") continue;
    const seen = bySession.get(session) ?? { requests: 0, instances: new Set<string>() };
    seen.requests++;
    for (const address of addresses.split(/,\s*/)) seen.instances.add(address);
    bySession.set(session, seen);
  }
  return bySession;
}

describe("three instances behind nginx with Redis sessions", () => {
  test(`${TOTAL_CALLS} calls from 2025- and 2026-era clients are each answered exactly once`, async () => {
    const clients = await callers(cluster.url, 4);
    const perClient = Math.ceil(TOTAL_CALLS / clients.length);
    const started = Date.now();
    await Promise.all(
      clients.map(async (caller, c) => {
        // Four calls in flight per client: 64 at once across the cluster.
        await Promise.all(
          [0, 1, 2, 3].map(async (lane) => {
            for (let i = lane; i < perClient; i += 4) await mixedCall(caller, `load${c}`, i);
          }),
        );
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    await Promise.all(clients.map((caller) => caller.close()));
    // Every upstream-bound call reached the upstream exactly once: nothing lost, nothing retried twice.
    for (let c = 0; c < clients.length; c++) {
      for (let i = 0; i < perClient; i++) {
        const prefix = ["", "f", "o", "r"][i % 4];
        if (prefix) expect(upstream.count(`${prefix}-load${c}-${i}`), `${prefix}-load${c}-${i}`).toBe(1);
      }
    }
    // 2025-era sessions moved between instances: nginx spread their requests over all three.
    const busy = [...instancesBySession(cluster.accessLog).values()].filter((seen) => seen.requests >= 30);
    expect(busy.length).toBe(8); // 4 SDK v1 and 4 mcpgen clients in the 2025 era
    for (const seen of busy)
      expect([...seen.instances].sort()).toEqual(cluster.instances.map((i) => `127.0.0.1:${i.port}`).sort());
    process.stderr.write(`scale: ${clients.length * perClient} calls in ${seconds.toFixed(1)} s\n`);
  });
});

/** The parts of a JSON-RPC message these tests read. */
type Message = {
  id?: unknown;
  method?: string;
  params?: { data?: unknown };
  result?: { structuredContent?: Record<string, unknown> };
  error?: { message?: string };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<void>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}

const JSON_AND_SSE = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** A raw 2025-era session on one instance: initialize, then notifications/initialized. */
async function legacySession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: "POST",
    headers: JSON_AND_SSE,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "scale-test", version: "0" } },
    }),
  });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  if (!session) throw new Error(`initialize answered ${init.status} without a session id`);
  const headers = { ...JSON_AND_SSE, "Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY };
  const initialized = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.text();
  return headers;
}

/** Reads SSE events from a response until `enough` says so or the stream ends, then lets go of it. */
async function readEvents(response: Response, enough: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  const reader = response.body?.getReader();
  if (!reader) return events;
  const decoder = new TextDecoder();
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => {});
  return events;
}

const messagesOf = (events: SseEvent[]) =>
  events.filter((event) => event.data !== "").map((event) => JSON.parse(event.data) as Message);
const answered = (id: number) => (events: SseEvent[]) => messagesOf(events).some((message) => message.id === id);
const summary = (message: Message) =>
  message.method === "notifications/message"
    ? message.params?.data
    : `result ${JSON.stringify(message.result?.structuredContent)}`;

describe("resumable streams across instances", () => {
  const EXPECTED_REST = ["step 2", "step 3", "step 4", "step 5", 'result {"value":843.8,"unit":"F"}'];

  test.each([
    ["after the call has finished", 1_200],
    ["while the call is still running (the rest arrives live)", 100],
  ])(
    "an SSE answer cut on one instance and resumed on another gets exactly the missed events, %s",
    async (_when, waitMs) => {
      const [first, second] = cluster.instances;
      const headers = await legacySession(first.url);
      const call = {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "convert_temperature", arguments: { value: 451, from: "C" } },
      };
      const post = await fetch(first.url, { method: "POST", headers, body: JSON.stringify(call) });
      expect(post.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const seen = await readEvents(post, (events) => messagesOf(events).length >= 1);
      expect(messagesOf(seen).map(summary)).toEqual(["step 1"]);
      const lastEventId = seen.at(-1)?.id;
      expect(lastEventId).toBeDefined();
      await sleep(waitMs);
      const resumed = await fetch(second.url, {
        headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": String(lastEventId) },
      });
      expect(resumed.status).toBe(200);
      const rest = await readEvents(resumed, answered(7));
      expect(messagesOf(rest).map(summary)).toEqual(EXPECTED_REST);
    },
  );
});

type Raw = { status: number; body: Message | undefined };

/** A 2026-era tools/call as a raw POST with the routing headers nginx matches on. */
async function modernCall(url: string, tool: string, args: Record<string, unknown>, param: string): Promise<Raw> {
  const headers = {
    ...JSON_AND_SSE,
    ...modernHeaders("tools/call", tool),
    [`Mcp-Param-${param}`]: String(args[param.toLowerCase()]),
  };
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: tool, arguments: args, _meta: modernMeta() },
    }),
  });
  const text = await response.text();
  const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const body = sse ? messagesOf(parseSse(text)).find((message) => message.id === 1) : safeJson(text);
  return { status: response.status, body };
}

function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  new SseParser((event) => events.push(event)).feed(text);
  return events;
}

function safeJson(text: string): Message | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe("an instance killed (-9) under load", () => {
  test("in-flight read-only calls are retried elsewhere and succeed; non-idempotent ones fail with 502 and ran at most once", async () => {
    const victim = cluster.instances[1];
    const session = await connectSdkV1({ kind: "http", url: cluster.url });
    await session.peer.callTool("convert_temperature", { value: 1, from: "C" });
    const reads = Array.from({ length: 12 }, (_, i) =>
      modernCall(cluster.url, "get_forecast", { city: `hang-f-${i}` }, "City"),
    );
    const resets = Array.from({ length: 12 }, (_, i) =>
      modernCall(cluster.url, "reset_station", { station: `hang-r-${i}` }, "Station"),
    );
    const reports = Array.from({ length: 12 }, (_, i) =>
      modernCall(cluster.url, "report_observation", { station: `hang-o-${i}`, temperatureC: 1 }, "Station"),
    );
    await eventually(async () => expect(upstream.hanging()).toBe(36), 10_000);
    victim.child.kill("SIGKILL");
    await victim.exited;
    await sleep(500);
    upstream.releaseHangs();

    const readResults = await Promise.all(reads);
    readResults.forEach((result, i) => {
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body?.result?.structuredContent?.city).toBe(`hang-f-${i}`);
    });
    // The victim's share of the reads ran twice upstream: once there, once on the instance nginx retried on.
    const retried = readResults.filter((_, i) => upstream.count(`hang-f-${i}`) === 2).length;
    expect(retried).toBeGreaterThan(0);

    let failed = 0;
    for (const [prefix, results] of [
      ["hang-r", await Promise.all(resets)],
      ["hang-o", await Promise.all(reports)],
    ] as const) {
      results.forEach((result, i) => {
        // Never twice upstream, whatever the client was told.
        expect(upstream.count(`${prefix}-${i}`)).toBe(1);
        if (result.status === 200) return;
        failed++;
        expect(result.status).toBe(502);
        expect(result.body?.error?.message).toMatch(/not retried/i);
      });
    }
    expect(failed).toBeGreaterThan(0);

    // The 2025-era session lives in Redis: it goes on over the two instances left.
    for (let i = 0; i < 10; i++) await session.peer.callTool("convert_temperature", { value: i, from: "C" });
    await session.close();
    await victim.restart();
  });
});

describe("an instance stopped with SIGTERM under load", () => {
  test("no request fails, and it exits 0", async () => {
    const clients = await callers(cluster.url, 1);
    const failures: string[] = [];
    let completed = 0;
    let running = true;
    const load = clients.map(async (caller, c) => {
      for (let i = 0; running; i++) {
        try {
          await mixedCall(caller, `term${c}`, i);
          completed++;
        } catch (error) {
          failures.push(`${caller.era} #${c} call ${i}: ${String(error)}`);
        }
      }
    });
    await sleep(1_000);
    const victim = cluster.instances[2];
    const before = completed;
    victim.child.kill("SIGTERM");
    expect(await victim.exited).toBe(0);
    await sleep(1_000);
    running = false;
    await Promise.all(load);
    await Promise.all(clients.map((caller) => caller.close()));
    // nginx's error log says how a lost request was lost (a reset, a premature close, a refused connect).
    const lost = cluster.nginx
      .errorLog()
      .split("\n")
      .filter((line) => line.includes("[error]"));
    expect(failures, `nginx:\n${lost.slice(-20).join("\n")}\nvictim:\n${victim.stderr().slice(-2000)}`).toEqual([]);
    expect(completed - before).toBeGreaterThan(50);
    await victim.restart();
  });
});

describe("Redis restarted under load", () => {
  test("calls that need a session fail clearly during the outage, 2026-era calls never do, and service returns by itself", async () => {
    const modern = await connect({ url: cluster.url });
    const legacy = await connect({ url: cluster.url }, { protocolVersion: LEGACY });
    await legacy.callTool("convert_temperature", { value: 1, from: "C" });
    const modernFailures: string[] = [];
    let modernCalls = 0;
    let running = true;
    const modernLoop = (async () => {
      while (running) {
        try {
          await modern.callTool("convert_temperature", { value: 2, from: "C" });
          modernCalls++;
        } catch (error) {
          modernFailures.push(String(error));
        }
      }
    })();

    await redis.kill();
    const started = Date.now();
    await expect(legacy.callTool("convert_temperature", { value: 3, from: "C" })).rejects.toThrow(/session store/i);
    expect(Date.now() - started).toBeLessThan(8_000);
    await sleep(1_000);
    await redis.start();
    await eventually(async () => {
      const fresh = await connect({ url: cluster.url }, { protocolVersion: LEGACY });
      try {
        await fresh.callTool("convert_temperature", { value: 4, from: "C" });
      } finally {
        await fresh.close();
      }
    }, 20_000);
    running = false;
    await modernLoop;
    await Promise.all([modern.close(), legacy.close().catch(() => {})]);
    expect(modernFailures).toEqual([]);
    expect(modernCalls).toBeGreaterThan(10);
  });
});
