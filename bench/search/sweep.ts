// Measures tool search's field weights on the tuning sets (issue 29: "field weights you measure rather
// than guess"): coordinate ascent over FIELD_BOOST, each field tried at a few multiples of its weight,
// keeping a change only when mean recall@5 over the tuning sets rises (recall@1 breaks ties). Held-out sets
// are never read here.   npx tsx bench/search/sweep.ts
import { buildModel } from "../../generator/build-model.ts";
import { definitionData } from "../../generator/render/definition.ts";
import { searchDocuments } from "../../generator/render/search-index.ts";
import { buildSearchIndex, FIELD_BOOST, SEARCH_INDEX_OPTIONS } from "../../runtime/search/search-index.ts";
import { rankTools, readsOf } from "../../runtime/search/tool-search.ts";
import { ROOT } from "../lib/paths.ts";
import { QUERY_SET_FILES } from "./query-sets.ts";
import { measureRecall, readQueries } from "./recall.ts";

const sets = QUERY_SET_FILES.filter((set) => set.role === "tuning").map((set) => {
  const { model } = buildModel(`${ROOT}${set.spec}`);
  if (!model) throw new Error(`${set.spec} does not build`);
  const { tools, toolsets } = definitionData(model).catalog;
  return {
    id: set.id,
    reads: readsOf(tools),
    index: buildSearchIndex(searchDocuments(model, tools), toolsets),
    queries: readQueries(`${ROOT}${set.file}`),
  };
});

// MiniSearch keeps the options' boost object: changing it in place changes every later search.
const boost = SEARCH_INDEX_OPTIONS.searchOptions?.boost as Record<string, number>;

function score(): { at5: number; at1: number; line: string } {
  let at5 = 0;
  let at1 = 0;
  const parts: string[] = [];
  for (const set of sets) {
    const recall = measureRecall(
      (query, limit) =>
        rankTools(set.index, query, undefined, set.reads)
          .slice(0, limit)
          .map((r) => r.name),
      set.queries,
    );
    at5 += recall.at5 / sets.length;
    at1 += recall.at1 / sets.length;
    parts.push(`${set.id} @1 ${(recall.at1 * 100).toFixed(0)}% @5 ${(recall.at5 * 100).toFixed(0)}%`);
  }
  return { at5, at1, line: parts.join("  ") };
}

const better = (a: { at5: number; at1: number }, b: { at5: number; at1: number }) =>
  a.at5 > b.at5 + 1e-9 || (Math.abs(a.at5 - b.at5) < 1e-9 && a.at1 > b.at1 + 1e-9);

let best = score();
console.log(`start ${JSON.stringify(boost)}\n  ${best.line}`);
for (let pass = 0; pass < 2; pass++) {
  for (const field of Object.keys(FIELD_BOOST)) {
    const start = boost[field];
    for (const factor of [0, 0.25, 0.5, 2, 4]) {
      const was = boost[field];
      boost[field] = start === 0 ? factor / 2 : start * factor;
      const now = score();
      if (better(now, best)) {
        best = now;
        console.log(`${field} ${was} -> ${boost[field]}\n  ${now.line}`);
      } else boost[field] = was;
    }
  }
}
console.log(`best ${JSON.stringify(boost)}\n  ${best.line}`);
