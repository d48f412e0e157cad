// `npm run bench [-- <suite>...] [--rounds n] [--quick]`: runs the benchmark
// suites (codegen, runtime, startup, huge-spec, search, scale, views; all by default), prints the tables
// and writes them into bench/RESULTS.md. --quick shrinks call counts and rounds
// for iterating; its figures are marked as such.
import { parseArgs } from "node:util";
import { compileBenchServers, echoPackage } from "./lib/build.ts";
import { describeEnvironment } from "./lib/environment.ts";
import { RESULTS_FILE } from "./lib/paths.ts";
import { renderSection, type Section, writeSections } from "./lib/results-file.ts";
import { log } from "./lib/rounds.ts";
import { codegenSuite } from "./suites/codegen.ts";
import { hugeSpecSuite } from "./suites/huge-spec.ts";
import { runtimeSuite } from "./suites/runtime.ts";
import { scaleSuite } from "./suites/scale.ts";
import { searchSuite } from "./suites/search.ts";
import { startupSuite } from "./suites/startup.ts";
import { viewsSuite } from "./suites/views.ts";

const SUITES = ["codegen", "runtime", "startup", "huge-spec", "search", "scale", "views"] as const;
type Suite = (typeof SUITES)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string" },
    quick: { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(`usage: npm run bench [-- <${SUITES.join("|")}>...] [--rounds <n>] [--quick] [--no-write]\n`);
  process.exit(0);
}
const unknown = positionals.filter((name) => !(SUITES as readonly string[]).includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown suite(s): ${unknown.join(", ")}; choose from ${SUITES.join(", ")}\n`);
  process.exit(2);
}
const selected: Suite[] = positionals.length > 0 ? (positionals as Suite[]) : [...SUITES];
const quick = values.quick ?? false;
const rounds = values.rounds ? Number(values.rounds) : undefined;

const started = Date.now();
const environment = describeEnvironment();
log(environment);
const needsServers = selected.includes("runtime") || selected.includes("startup");
const servers = needsServers ? compileBenchServers() : undefined;
const echo = needsServers ? echoPackage() : undefined;

let failures = 0;
for (const suite of selected) {
  const suiteStarted = Date.now();
  let section: Section;
  try {
    if (suite === "runtime" && servers && echo) {
      section = await runtimeSuite(servers, echo, {
        // Five: a sequential stdio round trip is mostly process wake-ups, which a shared machine disturbs.
        rounds: rounds ?? (quick ? 1 : 5),
        calls: quick ? 2_000 : 10_000,
        warmupCalls: quick ? 500 : 1_000,
      });
    } else if (suite === "startup" && servers && echo) {
      section = await startupSuite(servers, echo, { rounds: rounds ?? (quick ? 3 : 7) });
    } else if (suite === "search") {
      section = await searchSuite({ rounds: rounds ?? (quick ? 1 : 3) });
    } else if (suite === "scale") {
      section = await scaleSuite({ seconds: quick ? 2 : 8, warmupSeconds: quick ? 1 : 2 });
    } else if (suite === "views") {
      section = await viewsSuite();
    } else if (suite === "huge-spec") {
      section = await hugeSpecSuite({ rounds: rounds ?? (quick ? 1 : 3) });
    } else {
      section = await codegenSuite({ rounds: rounds ?? (quick ? 1 : 3) });
    }
  } catch (error) {
    // One broken suite must not lose the others' figures.
    failures++;
    log(`${suite} failed: ${(error as Error).stack ?? error}`);
    continue;
  }
  const seconds = ((Date.now() - suiteStarted) / 1000).toFixed(0);
  section.intro.unshift(`${environment} This section took ${seconds} s${quick ? " (--quick: reduced counts)" : ""}.`);
  process.stdout.write(`${renderSection(section)}\n\n`);
  // Written after each suite, so an interrupted run keeps what it measured.
  if (!values["no-write"]) writeSections(RESULTS_FILE, [section]);
}
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s${values["no-write"] ? "" : `; wrote ${RESULTS_FILE}`}`);
process.exit(failures > 0 ? 1 : 0);
