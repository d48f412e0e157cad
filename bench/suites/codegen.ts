// Codegen, whole process: wall time and peak RSS of `mcpgen generate` on real
// OpenAPI documents, the type-check of what it wrote, a no-change regeneration
// and `--check`, next to openapi-mcp-generator (generate, then `tsc --noEmit`
// of its output) and openapi-typescript (types only).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { openApiAvailable } from "../lib/build.ts";
import { mib, msSpread, ratio } from "../lib/format.ts";
import { BIN, CORPORA, type Corpus, NODE, PETSTORE_SPEC, ROOT, SCRATCH } from "../lib/paths.ts";
import { type RunResult, runMeasured } from "../lib/process.ts";
import type { Section, Table } from "../lib/results-file.ts";
import { alternate, log } from "../lib/rounds.ts";
import { type Summary, summarize } from "../lib/stats.ts";

type Step = { id: string; label: string; run: () => Promise<RunResult> };
type Contender = { id: string; label: string; steps: Step[] };
type StepResults = Map<string, RunResult>;

// Every step is bounded so the whole suite fits its 20-minute budget on 2 cores; a step cut off reports
// "gave up after N s", which is a measurement too (it took at least that long).
const GENERATE_TIMEOUT_MS = 240_000;
const TSC_TIMEOUT_MS = 90_000;
/** A step slower than this is measured once: repeating it would not change the verdict and costs minutes. */
const REPEAT_LIMIT_MS = 30_000;

export async function codegenSuite(options: { rounds: number }): Promise<Section> {
  mkdirSync(`${SCRATCH}codegen`, { recursive: true }); // openapi-typescript does not create its output directory
  const availability = openApiAvailable(PETSTORE_SPEC);
  const rows: string[][] = [];
  const targets: string[][] = [];
  const notes: string[] = [];
  if (!availability.ok) notes.push(`mcpgen rows: not measured: ${availability.reason}.`);
  // BENCH_CORPORA=github,stripe runs only those (for iterating; a full run measures all three).
  const only = process.env.BENCH_CORPORA?.split(",").filter(Boolean);
  for (const corpus of CORPORA.filter((c) => only === undefined || only.includes(c.id))) {
    // Microsoft Graph takes minutes per tool; one round keeps the suite inside its time budget.
    const rounds = corpus.id === "graph" ? 1 : options.rounds;
    const contenders = [peerMcpGenerator(corpus), peerOpenapiTypescript(corpus)];
    if (availability.ok) contenders.unshift(ours(corpus));
    log(`codegen: ${corpus.title}, ${rounds} round(s)`);
    const once = new Set<string>(); // steps that failed or were too slow to repeat
    const broken = new Set<string>(); // contenders whose generate failed
    const results = await alternate(rounds, contenders, async (contender) => {
      const byStep: StepResults = new Map();
      for (const step of contender.steps) {
        const key = `${contender.id}/${step.id}`;
        if (once.has(key)) {
          if (broken.has(contender.id)) break; // its generate failed: there is no package to work on
          continue;
        }
        const result = await step.run();
        byStep.set(step.id, result);
        log(
          `  ${contender.label}, ${step.label}: ${(result.wallMs / 1000).toFixed(1)} s, ${describeOutcome([result])}`,
        );
        if (result.code !== 0 || result.wallMs > REPEAT_LIMIT_MS) once.add(key);
        if (result.code !== 0 && step.id === "generate") {
          broken.add(contender.id);
          break; // nothing to type-check or regenerate
        }
      }
      return byStep;
    });
    const summaries = new Map<string, { time: Summary; rss: Summary; outcome: string }>();
    for (const contender of contenders) {
      for (const step of contender.steps) {
        const list = (results.get(contender.id) ?? []).flatMap((byStep) => byStep.get(step.id) ?? []);
        if (list.length === 0) continue;
        const time = summarize(list.map((result) => result.wallMs));
        const rss = summarize(list.map((result) => result.peakRssKib));
        const outcome = describeOutcome(list);
        summaries.set(`${contender.id}/${step.id}`, { time, rss, outcome });
        rows.push([
          corpus.title,
          contender.label,
          step.label,
          msSpread(time),
          mib(rss.median),
          outcome,
          String(list.length),
        ]);
      }
    }
    if (!availability.ok) {
      rows.push([
        corpus.title,
        "mcpgen",
        "generate, type-check, regenerate, --check",
        "not measured: OpenAPI input not available",
        "–",
        "–",
        "0",
      ]);
    }
    targets.push(...corpusTargets(corpus, summaries, availability.ok));
  }
  notes.push(
    "openapi-mcp-generator's `tsc --noEmit` runs with the repository's node_modules (its output's dependencies are devDependencies here: @modelcontextprotocol/sdk, zod, axios, dotenv, json-schema-to-zod).",
    `Steps are cut off after ${GENERATE_TIMEOUT_MS / 1000} s (generate) or ${TSC_TIMEOUT_MS / 1000} s (tsc); a step that failed, was cut off or took over ${REPEAT_LIMIT_MS / 1000} s runs once (see "runs"). After a failed generate, that tool's later steps are skipped.`,
  );
  return {
    id: "codegen",
    title: "Codegen: OpenAPI document → package, whole process",
    intro: [
      `Wall time from spawn to exit and peak RSS (GNU time %M) of each process; ${options.rounds} rounds (Microsoft Graph: 1) in alternating order, each round starting from an empty output directory. Corpora: ${CORPORA.map((corpus) => `${corpus.title} = ${corpus.source}`).join("; ")}. Tools run as \`node <bin>\` (no npx). mcpgen runs on Microsoft Graph with bench/specs/graph-config.yaml, which raises its 5,000-tool cap to 12,000.`,
    ],
    tables: [
      { headers: ["corpus", "tool", "step", "wall", "peak RSS", "outcome", "runs"], rows } satisfies Table,
      { headers: ["target", "measured", "met"], rows: targets } satisfies Table,
    ],
    notes,
  };
}

function ours(corpus: Corpus): Contender {
  const out = `${SCRATCH}codegen/mcpgen-${corpus.id}`;
  // The bench's own cache folder: the cold step empties it, and every later step finds what it stored.
  const cache = `${SCRATCH}codegen/cache-${corpus.id}`;
  const withCache = { ...process.env, MCPGEN_CACHE_DIR: cache };
  const generate = (extra: string[] = [], file = corpus.file) =>
    runMeasured(NODE, [BIN.mcpgen, "generate", file, "--out", out, ...(corpus.mcpgenArgs ?? []), ...extra], {
      cwd: ROOT,
      env: withCache,
      timeoutMs: GENERATE_TIMEOUT_MS,
    });
  return {
    id: "mcpgen",
    label: "mcpgen",
    steps: [
      {
        // What the first generate on a machine costs: nothing cached (runtime JavaScript, types, validators).
        id: "generate-cold",
        label: "generate, first run on a machine (empty cache)",
        run: () => {
          rmSync(out, { recursive: true, force: true });
          rmSync(cache, { recursive: true, force: true });
          mkdirSync(cache, { recursive: true, mode: 0o700 });
          return generate();
        },
      },
      {
        id: "generate",
        label: "generate into an empty folder (types, validators, server, client, docs), warm cache",
        run: () => {
          rmSync(out, { recursive: true, force: true });
          return generate();
        },
      },
      {
        id: "tsc",
        label: "tsc --noEmit of the package",
        run: () => runMeasured(NODE, [BIN.tsc, "--noEmit", "-p", out], { cwd: ROOT, timeoutMs: TSC_TIMEOUT_MS }),
      },
      { id: "regenerate", label: "regenerate, no change", run: () => generate() },
      { id: "check", label: "generate --check", run: () => generate(["--check"]) },
      {
        // The everyday case: one operation's text changed; only its validator chunk is compiled again.
        id: "edit",
        label: "regenerate after one operation changed",
        run: () => generate([], editedCopy(corpus)),
      },
    ],
  };
}

/** A copy of the corpus with its first operation's summary changed (a new text every call). */
function editedCopy(corpus: Corpus): string {
  const document = JSON.parse(readFileSync(corpus.file, "utf8")) as {
    paths: Record<string, Record<string, { summary?: string }>>;
  };
  const [firstPath] = Object.values(document.paths);
  const operation = Object.values(firstPath).find((value) => typeof value === "object" && value !== null);
  if (operation) operation.summary = `${operation.summary ?? ""} (edited ${Date.now()})`;
  const file = `${SCRATCH}codegen/edited-${corpus.id}.json`;
  writeFileSync(file, JSON.stringify(document));
  return file;
}

function peerMcpGenerator(corpus: Corpus): Contender {
  const out = `${SCRATCH}codegen/omg-${corpus.id}`;
  return {
    id: "omg",
    label: "openapi-mcp-generator 4.0.1",
    steps: [
      {
        id: "generate",
        label: "generate",
        run: () => {
          rmSync(out, { recursive: true, force: true });
          return runMeasured(NODE, [BIN.openapiMcpGenerator, "-i", corpus.file, "-o", out, "--force"], {
            cwd: ROOT,
            timeoutMs: GENERATE_TIMEOUT_MS,
          });
        },
      },
      {
        id: "tsc",
        label: "tsc --noEmit of its output",
        run: () => runMeasured(NODE, [BIN.tsc, "--noEmit", "-p", out], { cwd: ROOT, timeoutMs: TSC_TIMEOUT_MS }),
      },
    ],
  };
}

function peerOpenapiTypescript(corpus: Corpus): Contender {
  const out = `${SCRATCH}codegen/ots-${corpus.id}.ts`;
  return {
    id: "ots",
    label: "openapi-typescript 7.13.0",
    steps: [
      {
        id: "types",
        label: "types only",
        run: () =>
          runMeasured(NODE, [BIN.openapiTypescript, corpus.file, "-o", out], {
            cwd: ROOT,
            timeoutMs: GENERATE_TIMEOUT_MS,
          }),
      },
    ],
  };
}

function describeOutcome(results: RunResult[]): string {
  const bad = results.find((result) => result.code !== 0);
  if (!bad) return "ok";
  if (bad.timedOut) return `gave up after ${(bad.wallMs / 1000).toFixed(0)} s`;
  if (bad.firstTsError) return `fails (${bad.firstTsError})`;
  if (bad.tail.includes("heap out of memory")) return "fails (JavaScript heap out of memory)";
  const diagnostic = /: error ([A-Z][A-Z0-9_]+): ([^\n]{0,120})/.exec(bad.tail);
  if (diagnostic) return `fails (${diagnostic[1]}: ${diagnostic[2]})`;
  const lastLine = bad.tail.trim().split("\n").at(-1)?.slice(0, 100) ?? "";
  return `fails (exit ${bad.code}${lastLine ? `: ${lastLine}` : ""})`;
}

const TARGET_LABELS: Record<string, string[]> = {
  stripe: ["Stripe: generate + type-check ≤ ½ of openapi-mcp-generator's", "Stripe: no-change regeneration < 1 s"],
  github: [
    "GitHub: generate ≤ 1.0× openapi-typescript (types only), warm cache",
    "GitHub: generate ≤ 1.0× openapi-typescript, empty cache",
    "GitHub: generate's peak RSS ≤ openapi-typescript's",
    "GitHub: package type-checks in < 15 s",
  ],
  graph: [
    "Microsoft Graph: generate ≤ 2× openapi-typescript, empty cache included",
    "Microsoft Graph: generate's peak RSS ≤ 1 GiB, empty cache included",
    "Microsoft Graph: generates and type-checks",
  ],
};

function corpusTargets(
  corpus: Corpus,
  summaries: Map<string, { time: Summary; rss: Summary; outcome: string }>,
  available: boolean,
): string[][] {
  const time = (key: string) => summaries.get(key)?.time.median ?? Number.NaN;
  const rss = (key: string) => summaries.get(key)?.rss.median ?? Number.NaN;
  const ok = (key: string) => summaries.get(key)?.outcome === "ok";
  const notMeasured = "not measured: OpenAPI input not available";
  const row = (label: string, measured: string, met: boolean) => [label, measured, met ? "yes" : "**no**"];
  const seconds = (key: string) => `${(time(key) / 1000).toFixed(1)} s`;
  const versus = (key: string, peer: string) => `${seconds(key)} vs ${seconds(peer)} = ${ratio(time(key), time(peer))}`;
  if (!available) {
    return (TARGET_LABELS[corpus.id] ?? []).map((label) => [label, notMeasured, "–"]);
  }
  const oursGenerate = summaries.get("mcpgen/generate")?.outcome ?? "not run";
  if (oursGenerate !== "ok") {
    const peer = corpus.id === "graph" ? `; peer tsc ${summaries.get("omg/tsc")?.outcome ?? "not run"}` : "";
    return (TARGET_LABELS[corpus.id] ?? []).map((label) => row(label, `mcpgen generate ${oursGenerate}${peer}`, false));
  }
  if (corpus.id === "stripe") {
    const oursTotal = time("mcpgen/generate") + time("mcpgen/tsc");
    const coldTotal = time("mcpgen/generate-cold") + time("mcpgen/tsc");
    const peerTotal = time("omg/generate") + time("omg/tsc");
    return [
      row(
        "Stripe: generate + type-check ≤ ½ of openapi-mcp-generator's",
        `${(oursTotal / 1000).toFixed(1)} s vs ${(peerTotal / 1000).toFixed(1)} s = ${ratio(oursTotal, peerTotal)} (empty cache: ${ratio(coldTotal, peerTotal)})`,
        oursTotal <= peerTotal / 2 && ok("mcpgen/tsc"),
      ),
      row("Stripe: no-change regeneration < 1 s", seconds("mcpgen/regenerate"), time("mcpgen/regenerate") < 1000),
    ];
  }
  if (corpus.id === "github") {
    const [labelWarm, labelCold, labelRss, labelTsc] = TARGET_LABELS.github;
    return [
      row(labelWarm, versus("mcpgen/generate", "ots/types"), time("mcpgen/generate") <= time("ots/types")),
      row(
        labelCold,
        versus("mcpgen/generate-cold", "ots/types"),
        time("mcpgen/generate-cold") <= time("ots/types") && ok("mcpgen/generate-cold"),
      ),
      row(
        labelRss,
        `${mib(rss("mcpgen/generate"))} warm, ${mib(rss("mcpgen/generate-cold"))} empty cache, vs ${mib(rss("ots/types"))}`,
        Math.max(rss("mcpgen/generate"), rss("mcpgen/generate-cold")) <= rss("ots/types"),
      ),
      row(
        labelTsc,
        `${seconds("mcpgen/tsc")}, ${summaries.get("mcpgen/tsc")?.outcome ?? "not run"}`,
        time("mcpgen/tsc") < 15_000 && ok("mcpgen/tsc"),
      ),
    ];
  }
  const [labelTime, labelRss, labelOk] = TARGET_LABELS.graph;
  const slowest = Math.max(time("mcpgen/generate"), time("mcpgen/generate-cold"));
  const largest = Math.max(rss("mcpgen/generate"), rss("mcpgen/generate-cold"));
  return [
    row(
      labelTime,
      `${versus("mcpgen/generate-cold", "ots/types")} empty cache; warm ${ratio(time("mcpgen/generate"), time("ots/types"))}`,
      slowest <= 2 * time("ots/types") && ok("mcpgen/generate-cold"),
    ),
    row(labelRss, `${mib(largest)}`, largest <= 1024 * 1024 && ok("mcpgen/generate-cold")),
    row(
      labelOk,
      `generate ${summaries.get("mcpgen/generate")?.outcome ?? "not run"}, tsc ${summaries.get("mcpgen/tsc")?.outcome ?? "not run"}; peer tsc ${summaries.get("omg/tsc")?.outcome ?? "not run"}`,
      ok("mcpgen/generate") && ok("mcpgen/tsc"),
    ),
  ];
}
