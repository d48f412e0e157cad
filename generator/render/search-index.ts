/**
 * src/search-index.json: dynamic mode's tool-search index, built here so a server pays nothing for it at
 * start-up (GitHub's 1,223 tools take a quarter of a second to index, and the file is read on the first search). The runtime reads it on the first search;
 * documents and options come from the runtime's own module, so both sides turn text into the same terms.
 */
import { buildSearchIndex, serializeSearchIndex } from "../../runtime/search/search-index.ts";
import type { Model } from "../normalize/normalize.ts";
import { definitionData } from "./definition.ts";
import { header } from "./ts.ts";

/** The file's path in a package, beside catalog.json. */
export const SEARCH_INDEX_FILE = "src/search-index.json";

/** The index of the package's tools; undefined for a package without tools. */
export function renderSearchIndex(model: Model): string | undefined {
  const { tools } = definitionData(model).catalog;
  if (tools.length === 0) return undefined;
  // The whole description, not the one tools/list serves cut short: the index costs no agent tokens.
  const whole = new Map(model.tools.map(({ node }) => [node.name, node.description]));
  const documents = tools.map((tool) => ({ ...tool, description: whole.get(tool.name) ?? tool.description }));
  return serializeSearchIndex(buildSearchIndex(documents), header(model.specRef).slice(3).trim());
}
