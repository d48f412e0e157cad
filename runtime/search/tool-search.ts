// Tool search for dynamic mode's search_tools: BM25+ (MiniSearch) over the index `mcpgen generate` built
// (src/search-index.json), read on the first search rather than at start-up. Without that file, or with
// one this runtime cannot read, the same index is built in memory from the tools: slower on the first
// search, never a failure.
import { readFileSync } from "node:fs";
import type { default as MiniSearch, SearchResult } from "minisearch";
import type { CatalogTool, CatalogToolset } from "../package/catalog-types.ts";
import { buildSearchIndex, parseSearchIndex, type ToolDocument } from "./search-index.ts";
import { coverage, isQuestion, parseQuery } from "./search-query.ts";
import { splitIdentifier, termOf } from "./search-text.ts";

export type ToolSearchOptions = {
  limit: number;
  /** Only these tools may be returned (toolsets, --read-only). */
  allowed: (name: string) => boolean;
  /** Only this toolset. */
  toolset?: string;
};

export type ToolSearch = { search(query: string, options: ToolSearchOptions): string[] };

/** The fields in which an API names what its tools do (parseQuery's `named`). */
const NAMING_FIELDS = ["name", "title", "toolset", "path"];

/** The query's terms are processed already (stemmed, expanded): split them, nothing more. */
const AS_IS = { tokenize: (text: string) => text.split(" "), processTerm: (term: string) => term };

/** The prebuilt index when it is readable and indexes exactly these tools; else undefined. */
function readIndex(file: URL, tools: readonly CatalogTool[]): MiniSearch<ToolDocument> | undefined {
  try {
    const index = parseSearchIndex(readFileSync(file, "utf8"));
    if (index?.documentCount !== tools.length) return undefined;
    return tools.every((tool) => index.has(tool.name)) ? index : undefined;
  } catch {
    // Missing, unreadable or corrupt: the in-memory index answers the same queries.
    return undefined;
  }
}

/** How much a read (GET, or read-only without a binding) gains when the query is a question (measured on the
 * tuning sets: recall@1 GitHub 51% -> 54%, Asana 36% -> 42%, @5 unchanged; 0.2 to 1 do the same). */
export const QUESTION_READ_BOOST = 0.3;

/** How much a tool gains when the query covers all of its name, against none of it (`nameFit`). */
export const NAME_FIT_BOOST = 0.5;

const nameTermsCache = new Map<string, string[]>();
/** The terms of a tool's name (the index's id), cached: every search asks for those of every match. */
function nameTerms(name: string): string[] {
  let terms = nameTermsCache.get(name);
  if (!terms) {
    terms = splitIdentifier(name).flatMap((word) => termOf(word) ?? []);
    nameTermsCache.set(name, terms);
  }
  return terms;
}

/**
 * The share of a tool's name the query covers: a query for "delete a branch" fits repos_delete-branch
 * better than repos_delete-branch-protection, which does more (or other) than was asked.
 */
function nameFit(name: string, terms: ReadonlyMap<string, number>): number {
  const words = nameTerms(name);
  return words.length === 0 ? 0 : words.filter((word) => terms.has(word)).length / words.length;
}

/**
 * The tools of `index` that match `query`, best first, each with its score. MiniSearch multiplies a score by
 * how many query terms matched, whatever their weight, so synonyms of one word would count as many words;
 * here the sum of BM25 scores is multiplied by the query's coverage instead (search-query.ts), and by how
 * much of the tool's name the query covers.
 */
export function rankTools(
  index: MiniSearch<ToolDocument>,
  query: string,
  filter: (name: string) => boolean = () => true,
  reads: ReadonlySet<string> = new Set(),
): Array<{ name: string; score: number }> {
  const named = (term: string) => index.search(term, { ...AS_IS, fields: NAMING_FIELDS }).length > 0;
  const parsed = parseQuery(query, named);
  if (parsed.terms.size === 0) return [];
  const results = index.search([...parsed.terms.keys()].join(" "), {
    ...AS_IS,
    boostTerm: (term) => parsed.terms.get(term) ?? 1,
    filter: (result) => filter(String(result.id)),
  });
  const question = isQuestion(query);
  const score = (result: SearchResult) =>
    (result.score / Math.max(1, result.queryTerms.length)) *
    coverage(parsed, result.queryTerms) *
    (1 + NAME_FIT_BOOST * nameFit(String(result.id), parsed.terms)) *
    (question && reads.has(String(result.id)) ? 1 + QUESTION_READ_BOOST : 1);
  return results
    .map((result) => ({ name: String(result.id), score: score(result) }))
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A search over `tools`; `indexFile`, when the package has one, is the prebuilt index. */
export function createToolSearch(
  tools: readonly CatalogTool[],
  indexFile?: URL,
  toolsetList: readonly CatalogToolset[] = [],
): ToolSearch {
  let index: MiniSearch<ToolDocument> | undefined;
  const toolsets = new Map(tools.map((tool) => [tool.name, tool.toolset ?? "default"]));
  const reads = readsOf(tools);
  return {
    search(query, { limit, allowed, toolset }) {
      if (limit < 1) return [];
      // Without the file: the same documents the generator indexed, toolset descriptions included.
      index ??= (indexFile && readIndex(indexFile, tools)) || buildSearchIndex(tools, toolsetList);
      const reachable = (name: string) => allowed(name) && (toolset === undefined || toolsets.get(name) === toolset);
      return rankTools(index, query, reachable, reads)
        .slice(0, limit)
        .map((result) => result.name);
    },
  };
}

/** The tools that read: an http GET, or without a binding, read-only by their annotations. */
export function readsOf(tools: readonly CatalogTool[]): Set<string> {
  const reads = (tool: CatalogTool) =>
    tool.http ? tool.http.method.toUpperCase() === "GET" : tool.annotations?.readOnlyHint === true;
  return new Set(tools.filter(reads).map((tool) => tool.name));
}
