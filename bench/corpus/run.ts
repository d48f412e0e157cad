/**
 * The APIs.guru corpus (issue 11): every document of the committed random sample, plus documents chosen
 * per repair class, through mcpgen and the peer openapi-mcp-generator: generated / compiled strict /
 * served tools/list. Writes the "corpus" section of bench/RESULTS.md and .tmp/corpus/results.json.
 *
 *   npx tsx bench/corpus/run.ts                 # all of it, one document at a time (about 30 min)
 *   npx tsx bench/corpus/run.ts --jobs 2 --limit 10 --no-peer --no-write
 *   npx tsx bench/corpus/run.ts --docs microsoft.com/cognitiveservices-NewsSearch.json --keep
 *   npx tsx bench/corpus/run.ts --skip 60 --jobs 2 --append   # resume: adds to .tmp/corpus/results.jsonl
 *   npx tsx bench/corpus/run.ts --report                      # the section from results.jsonl only
 *
 * Each result is appended to .tmp/corpus/results.jsonl as it comes, so a long run can be resumed.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RESULTS_FILE } from "../lib/paths.ts";
import { writeSections } from "../lib/results-file.ts";
import { corpusSection } from "./report.ts";
import { ROOT, SAMPLE_FILE } from "./sample.ts";
import { type DocumentResult, runDocument, SCRATCH } from "./steps.ts";

export const CLASSES_FILE = join(ROOT, "bench/corpus/apis-guru-classes.json");

export type CorpusLists = { sample: string[]; classes: Record<string, string[]> };

export function corpusLists(): CorpusLists {
  const sample = JSON.parse(readFileSync(SAMPLE_FILE, "utf8")).documents as string[];
  const classes = JSON.parse(readFileSync(CLASSES_FILE, "utf8")).classes as Record<string, string[]>;
  return { sample, classes };
}

/** Runs documents `jobs` at a time, in order of the list; results come back in the same order. */
export async function runCorpus(
  docs: string[],
  options: { jobs: number; peer: boolean; keep?: boolean; progress?: (r: DocumentResult, n: number) => void },
): Promise<DocumentResult[]> {
  const results: DocumentResult[] = new Array(docs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < docs.length) {
      const i = next++;
      results[i] = await runDocument(docs[i], options);
      options.progress?.(results[i], ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, worker));
  return results;
}

const RESULTS_JSONL = join(SCRATCH, "results.jsonl");

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: "string", default: "1" },
      limit: { type: "string" },
      skip: { type: "string" },
      docs: { type: "string" },
      append: { type: "boolean", default: false },
      report: { type: "boolean", default: false },
      "no-peer": { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
  });
  const lists = corpusLists();
  const chosen = [...new Set(Object.values(lists.classes).flat())].filter((d) => !lists.sample.includes(d));
  const all = [...lists.sample, ...chosen];
  let docs = values.docs ? values.docs.split(",") : all;
  if (values.skip) docs = docs.slice(Number(values.skip));
  if (values.limit) docs = docs.slice(0, Number(values.limit));
  mkdirSync(SCRATCH, { recursive: true });
  const started = Date.now();
  if (!values.report) {
    if (!values.append) writeFileSync(RESULTS_JSONL, "");
    await runCorpus(docs, {
      jobs: Number(values.jobs),
      peer: !values["no-peer"],
      keep: values.keep,
      progress: (r, n) => {
        appendFileSync(RESULTS_JSONL, `${JSON.stringify(r)}\n`);
        const say = (o?: DocumentResult["ours"]) =>
          o ? (o.failedAt ? `${o.failedAt} FAILED (${o.reason})` : `ok ${o.tools} tools`) : "-";
        process.stderr.write(`[${n}/${docs.length}] ${r.doc}: ours ${say(r.ours)}; peer ${say(r.peer)}\n`);
      },
    });
  }
  // The section covers the whole corpus, from every result recorded so far (the last one per document).
  const recorded = new Map<string, DocumentResult>();
  if (existsSync(RESULTS_JSONL)) {
    for (const line of readFileSync(RESULTS_JSONL, "utf8").split("\n").filter(Boolean)) {
      const result = JSON.parse(line) as DocumentResult;
      recorded.set(result.doc, result);
    }
  }
  const results = all.filter((d) => recorded.has(d)).map((d) => recorded.get(d)!);
  writeFileSync(join(SCRATCH, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  if (values["no-write"] || values.docs || values.limit) return;
  if (results.length < all.length) {
    process.stderr.write(`${all.length - results.length} documents have no result yet; RESULTS.md not written\n`);
    return;
  }
  writeSections(RESULTS_FILE, [
    corpusSection(results, lists, values.report ? undefined : (Date.now() - started) / 1000),
  ]);
  process.stderr.write(`corpus section written to ${RESULTS_FILE}\n`);
}

if (process.argv[1]?.endsWith("corpus/run.ts")) await main();
