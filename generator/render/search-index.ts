/**
 * src/search-index.json: dynamic mode's tool-search index, built here so a server pays nothing for it at
 * start-up (GitHub's 1,223 tools take a quarter of a second to index, and the file is read on the first search). The runtime reads it on the first search;
 * documents and options come from the runtime's own module, so both sides turn text into the same terms.
 */

import type { CatalogTool } from "../../runtime/package/catalog-types.ts";
import type { Model } from "../normalize/normalize.ts";
import { jsonParts, rememberedAsync } from "../output/content-cache.ts";
import { definitionData } from "./definition.ts";
import { header } from "./ts.ts";

/** The file's path in a package, beside catalog.json. */
export const SEARCH_INDEX_FILE = "src/search-index.json";

/** The index of the package's tools; undefined for a package without tools. */
export async function renderSearchIndex(model: Model): Promise<string | undefined> {
  const { tools, toolsets } = definitionData(model).catalog;
  if (tools.length === 0) return undefined;
  const documents = searchDocuments(model, tools);
  const comment = header(model.specRef).slice(3).trim();
  // Indexing is a pure function of these: an earlier run's index of the same tools is reused.
  return rememberedAsync(
    "search",
    // In parts: Graph's documents, whole schemas, are 100+ MB of JSON.
    () => jsonParts([documents, toolsets, comment]),
    async () => {
      // The indexer (MiniSearch, the stemmer) loads only when there is indexing to do.
      const { buildSearchIndex, serializeSearchIndex } = await import("../../runtime/search/search-index.ts");
      return serializeSearchIndex(buildSearchIndex(documents, toolsets), comment);
    },
  );
}

/**
 * The tools as the index reads them: whole descriptions and schemas, not the ones tools/list serves cut
 * short and compacted (the index costs no agent tokens).
 */
export function searchDocuments(model: Model, tools: readonly CatalogTool[]): CatalogTool[] {
  const nodes = new Map(model.tools.map(({ node }) => [node.name, node]));
  return tools.map((tool) => {
    const node = nodes.get(tool.name);
    if (!node) return tool;
    return {
      ...tool,
      description: node.description ?? tool.description,
      inputSchema: node.inputSchema as CatalogTool["inputSchema"],
      ...(node.outputSchema ? { outputSchema: node.outputSchema as CatalogTool["outputSchema"] } : {}),
    };
  });
}
