// Recall of tool search over a query set: for each plain-words query, is one of the expected tools among
// the first k results? The search measured is the runtime's own (createToolSearch reading a generated
// package's src/search-index.json, as search_tools does); the baseline is what a first attempt would be,
// MiniSearch with its default options over titles and descriptions only.
import { readFileSync } from "node:fs";
import MiniSearch from "minisearch";
import { parse } from "yaml";
import type { CatalogTool } from "../../runtime/package/catalog-types.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { createToolSearch } from "../../runtime/search/tool-search.ts";

/** `difficulty`: the first word of the entry's note ("easy", "medium", "hard: why"), when it has one. */
export type SearchQuery = { query: string; expect: string[]; difficulty?: string };
/** A ranker: tool names, best first. */
export type Ranker = (query: string, limit: number) => string[];
export type Miss = { query: string; expect: string[]; got: string[] };
export type Recall = { queries: number; at1: number; at5: number; at10: number; misses: Miss[] };

/** The query set a YAML file holds: a list of { query, expect: [names] }. */
export function readQueries(file: string): SearchQuery[] {
  const data: unknown = parse(readFileSync(file, "utf8"));
  if (!Array.isArray(data)) throw new Error(`${file}: expected a YAML list of { query, expect }`);
  return data.map((entry, n) => {
    const { query, expect, note } = (entry ?? {}) as { query?: unknown; expect?: unknown; note?: unknown };
    const names = typeof expect === "string" ? [expect] : expect;
    if (typeof query !== "string" || !Array.isArray(names) || !names.every((name) => typeof name === "string"))
      throw new Error(`${file}: entry ${n + 1} is not { query: string, expect: [tool names] }`);
    const difficulty = typeof note === "string" ? /^(easy|medium|hard)\b/.exec(note)?.[1] : undefined;
    return difficulty ? { query, expect: names, difficulty } : { query, expect: names };
  });
}

/** The tools of a generated package, as its server reads them. */
export function packageTools(packageDir: string): CatalogTool[] {
  return readCatalog(new URL(`file://${packageDir}/src/catalog.json`)).tools;
}

/** The runtime's search over a generated package, from its prebuilt index. */
export function runtimeRanker(packageDir: string, tools: readonly CatalogTool[]): Ranker {
  const search = createToolSearch(tools, new URL(`file://${packageDir}/src/search-index.json`));
  return (query, limit) => search.search(query, { limit, allowed: () => true });
}

/** The baseline: BM25 (MiniSearch, default options) over each tool's title and description. */
export function naiveRanker(tools: readonly CatalogTool[]): Ranker {
  const index = new MiniSearch({ fields: ["title", "description"] });
  index.addAll(tools.map((tool) => ({ id: tool.name, title: tool.title ?? "", description: tool.description ?? "" })));
  return (query, limit) =>
    index
      .search(query)
      .slice(0, limit)
      .map((result) => String(result.id));
}

/** Recall at 1, 5 and 10 (fractions), and the queries whose expected tool is not in the first 5. */
export function measureRecall(rank: Ranker, queries: readonly SearchQuery[]): Recall {
  let at1 = 0;
  let at5 = 0;
  let at10 = 0;
  const misses: Miss[] = [];
  for (const { query, expect } of queries) {
    const got = rank(query, 10);
    const position = got.findIndex((name) => expect.includes(name));
    if (position === 0) at1++;
    if (position >= 0 && position < 5) at5++;
    else misses.push({ query, expect, got: got.slice(0, 5) });
    if (position >= 0) at10++;
  }
  const n = queries.length || 1;
  return { queries: queries.length, at1: at1 / n, at5: at5 / n, at10: at10 / n, misses };
}

/** Recall per difficulty label (queries without one are left out). */
export function byDifficulty(rank: Ranker, queries: readonly SearchQuery[]): Record<string, Recall> {
  const labels = [...new Set(queries.flatMap((query) => query.difficulty ?? []))];
  return Object.fromEntries(
    labels.map((label) => [
      label,
      measureRecall(
        rank,
        queries.filter((query) => query.difficulty === label),
      ),
    ]),
  );
}

/** Expected names that are no tool of the package: a query set written against another version of the API. */
export function unknownExpectations(queries: readonly SearchQuery[], tools: readonly CatalogTool[]): string[] {
  const names = new Set(tools.map((tool) => tool.name));
  return [...new Set(queries.flatMap((q) => q.expect).filter((name) => !names.has(name)))];
}
