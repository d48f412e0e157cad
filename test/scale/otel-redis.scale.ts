// Redis round trips in traces (issue 35), every part real: generated packages run with --otel against a real
// redis-server, exporting to an OTLP/HTTP receiver on 127.0.0.1. 2025-era sessions (--session-store): each
// request's lookups and writes are spans under its server span, the upstream's span beside them. Tasks
// (--task-store): a poll's reads of the task store are spans under tasks/get's. No key or value is recorded.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { connect } from "../../runtime/client/client.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { startUpstream } from "../generate/support.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../runtime/features/otel/otlp-receiver.ts";
import { freePort } from "../support/free-port.ts";
import { type JobApi, startJobApi } from "../support/job-api.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import { type Instance, startInstance, stopInstance } from "./cluster.ts";

const OUT = join(REPO_ROOT, "test/.out", `otel-redis-${process.pid}`);
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

let redis: RedisServer;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let jobApi: JobApi;
const instances: Instance[] = [];

function generate(spec: string, features: string): string {
  const out = join(OUT, spec);
  const args = ["generate", join(REPO_ROOT, `specs/${spec}.yaml`), "--out", out, "--features", features];
  execFileSync(process.execPath, [join(REPO_ROOT, "bin/mcpgen.js"), ...args]);
  return out;
}

async function serve(pkg: string, upstreamUrl: string, args: string[], service: string): Promise<Instance> {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_SERVICE_NAME: service };
  const instance = await startInstance(pkg, await freePort(), {
    upstream: upstreamUrl,
    args: ["--otel", ...args],
    env,
  });
  instances.push(instance);
  return instance;
}

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  [redis, receiver, jobApi, upstream] = await Promise.all([
    startRedis(),
    startOtlpReceiver(),
    startJobApi(2),
    startUpstream({
      "GET /forecast/*": () => ({ json: { city: "Paris", days: [{ date: "2026-07-01", highC: 24, lowC: 15 }] } }),
    }),
  ]);
}, 120_000);
afterAll(async () => {
  for (const instance of instances) await stopInstance(instance);
  await Promise.all([redis?.stop(), receiver?.close(), jobApi?.close(), upstream?.close()]);
  rmSync(OUT, { recursive: true, force: true });
});

/** The spans under `parent`, by name, once `names` have all arrived. */
async function children(parent: ReceivedSpan, names: string[]): Promise<Map<string, ReceivedSpan>> {
  const found = new Map<string, ReceivedSpan>();
  for (const name of names)
    found.set(name, await receiver.waitFor((span) => span.parentSpanId === parent.spanId && span.name === name));
  return found;
}

test("--session-store: a request's session lookups and writes are spans under its server span, beside the upstream's", async () => {
  const pkg = generate("weather", "otel,redis");
  const server = await serve(pkg, upstream.url, ["--session-store", redis.url], "weather-sessions");
  const client = await connect({ url: server.url }, { protocolVersion: "2025-11-25" });
  const result = await client.callTool("get_forecast", { city: "Paris" });
  await client.close();
  expect(result.isError).not.toBe(true);

  const ofService = (name: string) => (span: ReceivedSpan) => span.service === "weather-sessions" && span.name === name;
  const initialize = await receiver.waitFor(ofService("initialize"));
  const reserved = await children(initialize, ["redis sessions.reserve", "redis sessions.add"]);
  const call = await receiver.waitFor(ofService("tools/call get_forecast"));
  expect(call.attributes["mcp.session.id"]).toMatch(/^[0-9a-f-]{36}$/);
  const spans = await children(call, ["redis sessions.use", "redis sessions.save", "GET /forecast/{city}"]);
  for (const span of reserved.values()) expect(span.traceId).toBe(initialize.traceId);
  for (const span of spans.values()) expect(span.traceId).toBe(call.traceId);
  expect(spans.get("redis sessions.use")).toMatchObject({ kind: "client", traceId: call.traceId });
  expect(spans.get("redis sessions.use")?.attributes).toEqual({
    "db.system.name": "redis",
    "db.operation.name": "use",
  });
  expect(spans.get("GET /forecast/{city}")?.traceId).toBe(call.traceId);
  // The server span covers the lookup before the call and the save after it.
  const [use, save] = [spans.get("redis sessions.use"), spans.get("redis sessions.save")];
  const at = (time = "0") => BigInt(time);
  expect(at(call.start) <= at(use?.start) && at(save?.end) <= at(call.end)).toBe(true);
  // No session id (the Redis key's part), no argument value in the store's spans.
  const text = JSON.stringify([...reserved.values(), ...spans.values()].map((span) => span.attributes));
  expect(text).not.toContain(call.attributes["mcp.session.id"] as string);
  expect(text).not.toContain("Paris");
});

test("--task-store: the task store's round trips are spans under the request that makes them", async () => {
  const pkg = generate("jobs", "otel,tasks,redis");
  const server = await serve(pkg, jobApi.url, ["--task-store", redis.url, "--task-poll-interval", "100"], "jobs-tasks");
  const client = await connect({ url: server.url }, { capabilities: TASKS });
  const created = await client.request("tools/call", {
    name: "createExport",
    arguments: { reportId: "r1", format: "csv" },
  });
  expect(created).toMatchObject({ resultType: "task", status: "working" });
  let task = created;
  for (let i = 0; i < 100 && task.status === "working"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    task = await client.request("tasks/get", { taskId: created.taskId });
  }
  await client.close();
  expect(task.status).toBe("completed");

  const create = await receiver.waitFor(
    (span) => span.service === "jobs-tasks" && span.name === "tools/call createExport",
  );
  const stored = await receiver.waitFor(
    (span) => span.parentSpanId === create.spanId && span.name.startsWith("redis "),
  );
  expect(stored.attributes).toMatchObject({ "db.system.name": "redis" });
  const poll = await receiver.waitFor((span) => span.service === "jobs-tasks" && span.name === "tasks/get");
  const read = await receiver.waitFor((span) => span.parentSpanId === poll.spanId && span.name === "redis get");
  expect(read).toMatchObject({ traceId: poll.traceId, kind: "client" });
  expect(JSON.stringify(read.attributes)).not.toContain(created.taskId as string);
});
