// SEAM (replaced by the tool-search branch): the interface dynamic mode's search_tools calls. The
// real implementation loads the index `mcpgen generate` built (src/search-index.json) and ranks with
// BM25; this placeholder only lets the dynamic-mode branch compile and run until it is merged.
import type { ManifestTool } from "./manifest-types.ts";

export type ToolSearchOptions = {
  limit: number;
  /** Only these tools may be returned (toolsets, --read-only). */
  allowed: (name: string) => boolean;
  /** Only this toolset. */
  toolset?: string;
};

export type ToolSearch = { search(query: string, options: ToolSearchOptions): string[] };

/** A search over `tools`; `indexFile`, when the package has one, is the prebuilt index. */
export function createToolSearch(tools: readonly ManifestTool[], _indexFile?: URL): ToolSearch {
  return {
    search(query, { limit, allowed, toolset }) {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      const scored = tools
        .filter((t) => allowed(t.name) && (toolset === undefined || (t.toolset ?? "default") === toolset))
        .map((t) => {
          const text = `${t.name} ${t.title ?? ""} ${t.description ?? ""}`.toLowerCase();
          return { name: t.name, score: words.filter((w) => text.includes(w)).length };
        })
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score);
      return scored.slice(0, limit).map((s) => s.name);
    },
  };
}
