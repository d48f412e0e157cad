// Scale-out (issue 18): throughput and latency of tools/call through nginx with one and three instances,
// with 2025-era sessions in memory or in Redis, against the same server answered directly, in one run.
// The deployment is the package's own (test/scale/cluster.ts: the generated deploy/nginx.conf pointed at
// free ports), the tool is the weather server's convert_temperature (a handler: no upstream API in the
// way), and the load is raw HTTP from this process: CONCURRENCY loops, each one call at a time.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { startCluster, startInstance, stopInstance } from "../../test/scale/cluster.ts";
import { startRecordingUpstream } from "../../test/scale/recording-upstream.ts";
import { freePort } from "../../test/support/free-port.ts";
import { startRedis } from "../../test/support/redis-server.ts";
import { ms, ratio } from "../lib/format.ts";
import { BIN, NODE, ROOT, SCRATCH } from "../lib/paths.ts";
import type { Section } from "../lib/results-file.ts";
import { log } from "../lib/rounds.ts";

const CONCURRENCY = 32;
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

type Era = "2025" | "2026";
type Measured = { rate: number; p50: number; p99: number; errors: number };
type Setup = { label: string; era: Era; url: () => string };

export async function scaleSuite(options: { seconds: number; warmupSeconds: number }): Promise<Section> {
  const pkg = generateWeather();
  const [upstream, redis] = await Promise.all([startRecordingUpstream(), startRedis()]);
  const running: Array<{ stop(): Promise<void> }> = [];
  try {
    const direct = await startInstance(pkg, await freePort(), { upstream: upstream.url });
    running.push({ stop: () => stopInstance(direct) });
    const directRedis = await startInstance(pkg, await freePort(), { upstream: upstream.url, sessionStore: redis.url });
    running.push({ stop: () => stopInstance(directRedis) });
    const one = await startCluster(pkg, 1, { upstream: upstream.url });
    running.push(one);
    const three = await startCluster(pkg, 3, { upstream: upstream.url, sessionStore: redis.url });
    running.push(three);
    const setups: Setup[] = [
      { label: "direct, 1 instance", era: "2026", url: () => direct.url },
      { label: "nginx, 1 instance", era: "2026", url: () => one.url },
      { label: "nginx, 3 instances", era: "2026", url: () => three.url },
      { label: "direct, 1 instance, sessions in memory", era: "2025", url: () => direct.url },
      { label: "direct, 1 instance, sessions in Redis", era: "2025", url: () => directRedis.url },
      { label: "nginx, 1 instance, sessions in memory", era: "2025", url: () => one.url },
      { label: "nginx, 3 instances, sessions in Redis", era: "2025", url: () => three.url },
    ];
    const results = new Map<Setup, Measured>();
    for (const setup of setups) {
      log(`scale: ${setup.era}-era, ${setup.label}`);
      await drive(setup, options.warmupSeconds);
      results.set(setup, await drive(setup, options.seconds));
    }
    return section(setups, results, options.seconds);
  } finally {
    for (const item of running.reverse()) await item.stop();
    await Promise.all([upstream.close(), redis.stop()]);
  }
}

/** The weather package in the scratch area, with the golden package's convert_temperature handler, and
 * the redis feature: the instances share their sessions through --session-store. */
function generateWeather(): string {
  const out = `${SCRATCH}scale-weather`;
  mkdirSync(SCRATCH, { recursive: true });
  const args = ["generate", `${ROOT}specs/weather.yaml`, "--out", out, "--force", "--features", "redis"];
  const generate = () => execFileSync(NODE, [BIN.mcpgen, ...args], { stdio: "ignore" });
  generate();
  const handler = "src/handlers/tools/convert_temperature.ts";
  copyFileSync(join(ROOT, "generated/weather", handler), join(out, handler));
  generate(); // dist/ again, with the handler
  return out;
}

/** CONCURRENCY loops calling convert_temperature for `seconds`; 2025-era loops each hold a session. */
async function drive(setup: Setup, seconds: number): Promise<Measured> {
  const url = setup.url();
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, lane) => {
      const headers = setup.era === "2025" ? await session(url) : modernHeaders();
      for (let i = 0; performance.now() < until; i++) {
        const started = performance.now();
        const ok = await call(url, headers, setup.era, lane * 1_000_000 + i);
        if (ok) latencies.push(performance.now() - started);
        else errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { rate: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

const BASE = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

function modernHeaders(): Record<string, string> {
  return { ...BASE, "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "convert_temperature" };
}

async function session(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: "POST",
    headers: BASE,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    }),
  });
  await init.text();
  const headers = {
    ...BASE,
    "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "",
    "MCP-Protocol-Version": LEGACY,
  };
  const done = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await done.text();
  return headers;
}

async function call(url: string, headers: Record<string, string>, era: Era, id: number): Promise<boolean> {
  const meta =
    era === "2026"
      ? {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        }
      : {};
  const params = { name: "convert_temperature", arguments: { value: id % 100, from: "C" }, ...meta };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
    });
    const text = await response.text();
    return response.status === 200 && text.includes('"unit":"F"');
  } catch {
    return false;
  }
}

function section(setups: Setup[], results: Map<Setup, Measured>, seconds: number): Section {
  const baseline = (era: Era) => results.get(setups.find((s) => s.era === era) as Setup) as Measured;
  const rows = setups.map((setup) => {
    const m = results.get(setup) as Measured;
    const base = baseline(setup.era);
    return [
      `${setup.era}-era`,
      setup.label,
      m.rate.toFixed(0),
      ratio(m.rate, base.rate),
      ms(m.p50),
      ms(m.p99),
      String(m.errors),
    ];
  });
  return {
    id: "scale",
    title: "Scale-out: nginx, several instances, Redis sessions (issue 18)",
    intro: [
      `tools/call of convert_temperature (a handler, no upstream API) from ${CONCURRENCY} concurrent loops in the bench process, ${seconds} s per row after a warm-up, raw HTTP with keep-alive. 2026-era requests are stateless; 2025-era loops each hold a session (initialize first). "nginx" is the package's generated deploy/nginx.conf in front of the instances; the ratio is calls/s against the direct row of the same era (higher is better).`,
    ],
    tables: [
      {
        headers: ["era", "setup", "calls/s", "vs direct", "p50", "p99", "failed"],
        rows,
      },
    ],
    notes: [
      "This machine has 2 cores, shared by the load generator, nginx, Redis and up to three Node processes: the three-instance rows cannot be faster than one instance here, so they measure what the extra hop and the shared store cost, not what scaling out gains. On a machine with a core per instance (and nginx and Redis beside them), each instance serves about the direct row's rate, so three instances approach three times it until nginx or Redis saturates; a Redis round trip per 2025-era request (reading the session) is the store's cost, visible in the direct Redis row.",
    ],
  };
}
