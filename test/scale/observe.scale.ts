// Metrics, JSON logs and request ids of a real generated server process (issue 18 §3): what a scrape
// and a log pipeline see, and what they must never see (arguments, tokens).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../conformance/harness.ts";
import { modernHeaders, modernMeta } from "../runtime/helpers.ts";
import { freePort } from "../support/free-port.ts";
import { type Instance, startInstance, stopInstance } from "./cluster.ts";
import { type RecordingUpstream, startRecordingUpstream } from "./recording-upstream.ts";

const OUT = join(REPO_ROOT, "test/.out", `observe-${process.pid}`);
const TOKEN = "tok-secret-4711";
const SECRET_CITY = "s3cr3t-city-0815";
let upstream: RecordingUpstream;
const started: Instance[] = [];

function generate(name: string, spec: string): string {
  const file = join(OUT, `${name}.yaml`);
  writeFileSync(file, spec);
  const pkg = join(OUT, name);
  // The tests scrape --metrics and start one server with an unreachable --session-store: metrics and redis.
  const args = ["generate", file, "--out", pkg, "--features", "metrics,redis"];
  execFileSync(process.execPath, [join(REPO_ROOT, "bin/mcpgen.js"), ...args], { stdio: "ignore" });
  return pkg;
}

let withId: string;
let withoutId: string;

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const weather = readFileSync(join(REPO_ROOT, "specs/weather.yaml"), "utf8");
  withoutId = generate("plain", weather);
  withId = generate(
    "traced",
    weather.replace("  timeoutMs: 10000\n", "  timeoutMs: 10000\n  requestIdHeader: X-Request-Id\n"),
  );
  upstream = await startRecordingUpstream();
});

afterAll(async () => {
  await Promise.all(started.map(stopInstance));
  await upstream?.close();
  rmSync(OUT, { recursive: true, force: true });
});

async function instance(pkg: string, args: string[], env: Record<string, string> = {}): Promise<Instance> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const made = await startInstance(pkg, await freePort(), { upstream: upstream.url, args });
    started.push(made);
    return made;
  } finally {
    process.env = saved;
  }
}

function forecast(url: string, city: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...modernHeaders("tools/call", "get_forecast"),
      "Mcp-Param-City": city,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_forecast", arguments: { city }, _meta: modernMeta() },
    }),
  });
}

describe("request ids, JSON logs and metrics", () => {
  test("the request id is kept, echoed, logged, counted and sent upstream when the spec asks; nothing secret shows", async () => {
    const server = await instance(withId, ["--metrics", "--log-format", "json"], { MCP_HTTP_TOKEN: TOKEN });
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const answer = await forecast(server.url, SECRET_CITY, { ...auth, "X-Request-Id": "trace-abc.123" });
    expect(answer.status).toBe(200);
    await answer.text();
    expect(answer.headers.get("x-request-id")).toBe("trace-abc.123");
    expect(upstream.records.find((r) => r.key === SECRET_CITY)?.requestId).toBe("trace-abc.123");
    // A malformed id (it could forge a log line) is replaced by a fresh one.
    const replaced = await forecast(server.url, "Paris", { ...auth, "X-Request-Id": "bad id\twith spaces" });
    await replaced.text();
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const scrape = await fetch(new URL("/metrics", server.url), { headers: auth });
    expect(scrape.status).toBe(200);
    const metrics = await scrape.text();
    expect(metrics).toMatch(/^mcp_requests_total\{method="tools\/call",tool="get_forecast",outcome="ok"\} 2$/m);
    expect(metrics).toMatch(/^mcp_upstream_requests_total\{target="get_forecast",status="200"\} 2$/m);
    expect(metrics).toMatch(
      /^mcp_request_duration_seconds_bucket\{le="0\.005",method="tools\/call",tool="get_forecast"\} \d+$/m,
    );
    expect(metrics).toMatch(/^mcp_upstream_duration_seconds_count\{target="get_forecast"\} 2$/m);
    expect(metrics).toMatch(/^mcp_sessions 0$/m);
    expect(metrics).toMatch(/^mcp_open_streams \d+$/m);
    expect(metrics).toMatch(/^process_cpu_user_seconds_total /m);
    // Without the token, the same port's /metrics is refused like /mcp.
    expect((await fetch(new URL("/metrics", server.url))).status).toBe(401);

    const lines = server.stderr().trim().split("\n");
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.every((entry) => typeof entry.time === "string" && typeof entry.level === "string")).toBe(true);
    expect(parsed).toContainEqual(
      expect.objectContaining({
        msg: "request",
        requestId: "trace-abc.123",
        method: "tools/call",
        tool: "get_forecast",
        status: 200,
        protocol: "2026",
      }),
    );
    for (const text of [server.stderr(), metrics]) {
      expect(text).not.toContain(SECRET_CITY);
      expect(text).not.toContain(TOKEN);
    }
  });

  test("without the spec's requestIdHeader the API gets no request id", async () => {
    const server = await instance(withoutId, []);
    const answer = await forecast(server.url, "Oslo-plain", { "X-Request-Id": "trace-plain" });
    await answer.text();
    expect(answer.headers.get("x-request-id")).toBe("trace-plain");
    const record = upstream.records.find((r) => r.key === "Oslo-plain");
    expect(record).toBeDefined();
    expect(record?.requestId).toBeUndefined();
    // Metrics are off unless asked for; text logs stay as they were (no access lines).
    expect((await fetch(new URL("/metrics", server.url))).status).toBe(404);
    expect(server.stderr()).not.toContain('"msg"');
  });

  test("--metrics-port serves them on a port of their own, not on the MCP port", async () => {
    const server = await instance(withoutId, ["--metrics-port", "0"]);
    // Printed right after the "listening on" line startInstance waits for.
    for (let i = 0; i < 100 && !server.stderr().includes("metrics at"); i++)
      await new Promise((r) => setTimeout(r, 20));
    const line = /metrics at (http:\/\/\S+)/.exec(server.stderr());
    expect(line).not.toBeNull();
    const scrape = await fetch(line?.[1] ?? "");
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain("# TYPE mcp_requests_total counter");
    expect((await fetch(new URL("/metrics", server.url))).status).toBe(404);
  });

  test("a server whose Redis cannot be reached does not start: exit 1, naming the store without its password", async () => {
    const port = await freePort();
    const store = `redis://user:pw-secret-42@127.0.0.1:${port}/0`;
    const server = join(withoutId, "dist/server.js");
    const run = spawnSync(process.execPath, [server, "--http", "--port", "0", "--session-store", store], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`cannot reach the session store redis://user:***@127.0.0.1:${port}/0`);
    expect(run.stderr).not.toContain("pw-secret-42");
    const bad = spawnSync(process.execPath, [server, "--http", "--session-store", "http://127.0.0.1:6379"], {
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      "--session-store must use redis:// (or rediss:// for TLS), not 'http://127.0.0.1:6379/'",
    );
  });
});
