// The search's development loop: recall of the current search code on each query set, built in process from
// the spec (no package written), with recall@5 by difficulty and every miss at 5 when asked.
//   npx tsx bench/search/tune.ts [--misses] [--only tuning|held-out] [set ...]
// Tuning sets may be looked at while changing the search; held-out sets only measured (issue 29).
import { buildModel } from "../../generator/build-model.ts";
import { definitionData } from "../../generator/render/definition.ts";
import { searchDocuments } from "../../generator/render/search-index.ts";
import { buildSearchIndex } from "../../runtime/search/search-index.ts";
import { rankTools, readsOf } from "../../runtime/search/tool-search.ts";
import { ROOT } from "../lib/paths.ts";
import { QUERY_SET_FILES, type QuerySetFile } from "./query-sets.ts";
import { byDifficulty, measureRecall, readQueries } from "./recall.ts";

const args = process.argv.slice(2);
const showMisses = args.includes("--misses");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const named = args.filter((arg, n) => !arg.startsWith("--") && args[n - 1] !== "--only");
const percent = (fraction: number) => `${(fraction * 100).toFixed(0)}%`.padStart(4);

function run(set: QuerySetFile): void {
  const { model, diagnostics } = buildModel(`${ROOT}${set.spec}`);
  if (!model) throw new Error(`${set.spec}: ${diagnostics.find((d) => d.severity === "error")?.message}`);
  const { tools, toolsets } = definitionData(model).catalog;
  const index = buildSearchIndex(searchDocuments(model, tools), toolsets);
  const queries = readQueries(`${ROOT}${set.file}`);
  const reads = readsOf(tools);
  const rank = (query: string, limit: number) =>
    rankTools(index, query, undefined, reads)
      .slice(0, limit)
      .map((result) => result.name);
  const recall = measureRecall(rank, queries);
  const levels = byDifficulty(rank, queries);
  const level = (name: string) => (levels[name] ? percent(levels[name].at5) : "   -");
  console.log(
    `${set.id.padEnd(14)} ${set.role.padEnd(9)} tools ${String(tools.length).padStart(5)}  @1 ${percent(recall.at1)}  @5 ${percent(recall.at5)}  @10 ${percent(recall.at10)}  easy ${level("easy")} medium ${level("medium")} hard ${level("hard")}`,
  );
  if (showMisses)
    for (const miss of recall.misses)
      console.log(`    miss: "${miss.query}" want ${miss.expect.join("|")} got ${miss.got.join(", ")}`);
}

for (const set of QUERY_SET_FILES) {
  if (named.length > 0 && !named.includes(set.id)) continue;
  if (only && set.role !== only) continue;
  run(set);
}
