// Tool search for dynamic mode's search_tools: BM25+ (MiniSearch) over the index `mcpgen generate` built
// (src/search-index.json), read on the first search rather than at start-up. Without that file, or with
// one this runtime cannot read, the same index is built in memory from the tools: slower on the first
// search, never a failure.
import { readFileSync } from "node:fs";
import type MiniSearch from "minisearch";
import type { ManifestTool } from "./manifest-types.ts";
import { buildSearchIndex, parseSearchIndex, type ToolDocument } from "./search-index.ts";
import { queryTerms } from "./search-query.ts";

export type ToolSearchOptions = {
  limit: number;
  /** Only these tools may be returned (toolsets, --read-only). */
  allowed: (name: string) => boolean;
  /** Only this toolset. */
  toolset?: string;
};

export type ToolSearch = { search(query: string, options: ToolSearchOptions): string[] };

/** The prebuilt index when it is readable and indexes exactly these tools; else undefined. */
function readIndex(file: URL, tools: readonly ManifestTool[]): MiniSearch<ToolDocument> | undefined {
  try {
    const index = parseSearchIndex(readFileSync(file, "utf8"));
    if (index?.documentCount !== tools.length) return undefined;
    return tools.every((tool) => index.has(tool.name)) ? index : undefined;
  } catch {
    // Missing, unreadable or corrupt: the in-memory index answers the same queries.
    return undefined;
  }
}

/** A search over `tools`; `indexFile`, when the package has one, is the prebuilt index. */
export function createToolSearch(tools: readonly ManifestTool[], indexFile?: URL): ToolSearch {
  let index: MiniSearch<ToolDocument> | undefined;
  const toolsets = new Map(tools.map((tool) => [tool.name, tool.toolset ?? "default"]));
  return {
    search(query, { limit, allowed, toolset }) {
      index ??= (indexFile && readIndex(indexFile, tools)) || buildSearchIndex(tools);
      const terms = queryTerms(query);
      if (terms.length === 0 || limit < 1) return [];
      const weights = new Map(terms.map(({ term, weight }) => [term, weight]));
      const results = index.search(terms.map(({ term }) => term).join(" "), {
        // The terms are processed already (stemmed, expanded): split them, nothing more.
        tokenize: (text) => text.split(" "),
        processTerm: (term) => term,
        boostTerm: (term) => weights.get(term) ?? 1,
        filter: (result) => allowed(result.id) && (toolset === undefined || toolsets.get(result.id) === toolset),
      });
      return results.slice(0, limit).map((result) => String(result.id));
    },
  };
}
