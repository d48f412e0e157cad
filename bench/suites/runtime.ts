// Runtime throughput: echo `tools/call` round trips, sequential and with 64 in
// flight, over stdio and Streamable HTTP on 127.0.0.1, all servers driven by
// the same raw client (bench/clients). 2025-era sessions (initialize), the
// only era SDK v1 speaks.
import { loadavg } from "node:os";
import { connectHttp, startHttpServer } from "../clients/http-client.ts";
import { runEchoLoad } from "../clients/load.ts";
import { initialize, type RawConnection } from "../clients/raw-connection.ts";
import { spawnStdio } from "../clients/stdio-client.ts";
import type { GeneratedServer, ServerFiles } from "../lib/build.ts";
import { ms, rateSpread, ratio } from "../lib/format.ts";
import { NODE } from "../lib/paths.ts";
import type { Section, Table } from "../lib/results-file.ts";
import { alternate, log } from "../lib/rounds.ts";
import { summarize } from "../lib/stats.ts";
import { type FeatureRows, featureRows } from "./runtime-features.ts";

export type RuntimeOptions = { rounds: number; calls: number; warmupCalls: number };

type Transport = "stdio" | "http";
/** `args`: flags after the script (a feature switched on); `headers`: sent with every HTTP request. */
type Contender = {
  id: string;
  label: string;
  script: string;
  ours: boolean;
  args?: string[];
  headers?: Record<string, string>;
  env?: Record<string, string>;
};
type Sample = { rate: number; p50: number; p99: number; warnings: string[] };

const MODES = [
  { inFlight: 1, label: "sequential" },
  { inFlight: 64, label: "64 in flight" },
];

export async function runtimeSuite(
  servers: ServerFiles,
  generated: GeneratedServer,
  options: RuntimeOptions,
): Promise<Section> {
  const rows: string[][] = [];
  const targets: string[][] = [];
  const features = await featureRows(generated);
  try {
    for (const transport of ["stdio", "http"] as Transport[])
      await measureTransport(transport, contendersOf(transport, servers, generated, features), options, rows, targets);
  } finally {
    await features.stop();
  }
  const table: Table = {
    headers: ["transport", "mode", "server", "calls/s", "p50", "p99", "vs SDK v1", "vs floor", "warnings (stderr)"],
    rows,
  };
  const targetTable: Table = { headers: ["target", "measured (generated / runtime)", "met"], rows: targets };
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  return {
    id: "runtime",
    title: "Runtime throughput: echo tools/call round trips",
    intro: [
      `${options.calls.toLocaleString("en-US")} calls per measurement after ${options.warmupCalls.toLocaleString("en-US")} warm-up calls on a fresh server process, ${options.rounds} rounds, servers in alternating order. One raw JSON-RPC client (bench/clients) drives every server: 2025-11-25 session (initialize), \`tools/call echo {text}\`, each answer checked. All servers are compiled to JavaScript and run with plain \`node\`. The SDK v1 HTTP peer uses its stateful Streamable HTTP transport with \`enableJsonResponse\` (its fastest mode); ours answers plain JSON when a call sends no interim messages.`,
      "HTTP feature rows (issues 32, 35): the echo package generated with `--features metrics,oauth,redis,otel`, one serving flag on per row (`--log-format json` runs the core package, whose flag it is); `--auth-issuer` trusts a key server the bench starts on 127.0.0.1 and the client sends one ES256 token it signed; `--session-store` uses a redis-server the bench starts (no persistence); `--otel` exports to an OTLP/HTTP sink the bench starts on 127.0.0.1 (in the bench's own process), sampled (`always_on`: every call's server span sent) and unsampled (`always_off`). The core package's row is the cost of tracing when the feature is not generated: none, as it carries no tracing code.",
    ],
    tables: [table, targetTable],
    notes: [
      `Load average at the end of the section: ${load}.`,
      ...features.skipped.map((reason) => `Row skipped: ${reason}.`),
    ],
  };
}

function contendersOf(
  transport: Transport,
  servers: ServerFiles,
  generated: GeneratedServer,
  features: FeatureRows,
): Contender[] {
  const contenders: Contender[] = [
    {
      id: "floor",
      label: `raw floor (bare ${transport === "stdio" ? "newline-JSON process" : "node:http handler"})`,
      script: transport === "stdio" ? servers.rawStdio : servers.rawHttp,
      ours: false,
    },
    { id: "generated", label: "mcpgen generated package (core only)", script: generated.jsEntry, ours: true },
    { id: "runtime", label: "mcpgen runtime (hand-written server)", script: servers.runtime, ours: true },
    { id: "sdk", label: "SDK v1 McpServer", script: servers.sdk, ours: false },
  ];
  if (transport === "http") for (const run of features.runs) contenders.push({ ...run, ours: true });
  return contenders;
}

async function measureTransport(
  transport: Transport,
  contenders: Contender[],
  options: RuntimeOptions,
  rows: string[][],
  targets: string[][],
): Promise<void> {
  for (const mode of MODES) {
    log(`runtime: ${transport}, ${mode.label}`);
    const samples = await alternate(options.rounds, contenders, (contender) =>
      measureOnce(transport, contender, mode.inFlight, options),
    );
    const median = (id: string) => summarize((samples.get(id) ?? []).map((sample) => sample.rate)).median;
    for (const contender of contenders) {
      const list = samples.get(contender.id) ?? [];
      const rate = summarize(list.map((sample) => sample.rate));
      const warnings = [...new Set(list.flatMap((sample) => sample.warnings))];
      rows.push([
        transport,
        mode.label,
        contender.label,
        rateSpread(rate),
        ms(summarize(list.map((sample) => sample.p50)).median),
        ms(summarize(list.map((sample) => sample.p99)).median),
        contender.id === "sdk" ? "1.00×" : ratio(rate.median, median("sdk")),
        contender.id === "floor" ? "1.00×" : ratio(rate.median, median("floor")),
        warnings.length === 0 ? "none" : warnings.join("; "),
      ]);
    }
    targets.push(...targetRows(transport, mode.inFlight, median, samples));
  }
}

async function measureOnce(
  transport: Transport,
  contender: Contender,
  inFlight: number,
  options: RuntimeOptions,
): Promise<Sample> {
  let connection: RawConnection;
  if (transport === "stdio") {
    connection = spawnStdio({ command: NODE, args: [contender.script] });
  } else {
    const args = [contender.script, "--http", "--port", "0", ...(contender.args ?? [])];
    const env = contender.env && { ...process.env, ...contender.env };
    const server = await startHttpServer({ command: NODE, args, ...(env ? { env } : {}) });
    connection = connectHttp(server.url, server, contender.headers);
  }
  try {
    await initialize(connection);
    await runEchoLoad(connection, options.warmupCalls, inFlight);
    const result = await runEchoLoad(connection, options.calls, inFlight);
    const warnings = connection
      .stderr()
      .split("\n")
      .filter((line) => /warning/i.test(line))
      .map((line) => line.replace(/\(node:\d+\)\s*/, "").slice(0, 120));
    return { rate: result.callsPerSecond, p50: result.p50Ms, p99: result.p99Ms, warnings };
  } finally {
    await connection.close();
  }
}

function targetRows(
  transport: Transport,
  inFlight: number,
  median: (id: string) => number,
  samples: Map<string, Sample[]>,
): string[][] {
  const check = (label: string, compute: (id: string) => number, goal: number, unit: string) => {
    const generated = compute("generated");
    const runtime = compute("runtime");
    const met = generated >= goal && runtime >= goal;
    return [label, `${generated.toFixed(2)}${unit} / ${runtime.toFixed(2)}${unit}`, met ? "yes" : "**no**"];
  };
  const vsSdk = (id: string) => median(id) / median("sdk");
  const vsFloor = (id: string) => median(id) / median("floor");
  const rows: string[][] = [];
  if (transport === "stdio" && inFlight === 1) {
    rows.push(check("stdio sequential ≥ 0.9× the raw floor (issue 32)", vsFloor, 0.9, "×"));
    rows.push(check("stdio sequential ≥ 1.8× SDK v1", vsSdk, 1.8, "×"));
  }
  if (transport === "stdio" && inFlight === 64) rows.push(check("stdio 64 in flight ≥ 3× SDK v1", vsSdk, 3, "×"));
  if (transport === "http" && inFlight === 1) rows.push(check("HTTP sequential ≥ 1.5× SDK v1", vsSdk, 1.5, "×"));
  // Issue 32: the HTTP path near a bare node:http handler sending the same bytes.
  const http = transport === "http" && `HTTP ${inFlight === 1 ? "sequential" : "64 in flight"}`;
  if (http) rows.push(check(`${http} ≥ 0.85× the raw floor (issue 32)`, vsFloor, 0.85, "×"));
  const ourWarnings = ["generated", "runtime"].flatMap((id) => (samples.get(id) ?? []).flatMap((s) => s.warnings));
  rows.push([
    `no warnings under load (${transport}, ${inFlight === 1 ? "sequential" : "64 in flight"})`,
    ourWarnings.length === 0 ? "none" : `${ourWarnings.length} lines`,
    ourWarnings.length === 0 ? "yes" : "**no**",
  ]);
  return rows;
}
