/**
 * The token cost of a package's tools/list (render/token-cost.ts), from the catalog exactly as
 * catalog.json stores it and readCatalog rebuilds it, so what is counted is what the server sends.
 * Counted once per model: the README and generate's cost line both ask.
 */
import type { CatalogTool, StoredCatalog } from "../../runtime/package/catalog-types.ts";
import type { Model } from "../normalize/normalize.ts";
import { withMemo } from "../output/answer-memo.ts";
import { catalogData } from "./definition.ts";
import { type ToolListCost, toolListCost } from "./token-cost.ts";

const counted = new WeakMap<Model, ToolListCost>();

export function packageCost(model: Model): ToolListCost {
  let cost = counted.get(model);
  if (!cost) {
    const stored = catalogData(model);
    // A tool's toolset as the catalog states it, else as the model does (`default` when neither).
    const tools = servedTools(stored).map((tool, index) => {
      const toolset = tool.toolset ?? model.tools[index]?.node.toolset;
      return toolset === undefined ? tool : { ...tool, toolset };
    });
    // The stored catalog's toolsets are the served one's (catalogData copies them).
    const toolsets = stored.toolsets ?? [];
    cost = withMemo("tokens", model.packageName, () => toolListCost(tools, toolsets));
    counted.set(model, cost);
  }
  return cost;
}

/** readCatalog's rebuilding of each schema's `$defs`, without changing the stored catalog. */
export function servedTools(stored: StoredCatalog): CatalogTool[] {
  const defs = stored.defs ?? {};
  const joined = (names: Record<string, string>) =>
    Object.fromEntries(Object.entries(names).map(([name, id]) => [name, defs[id]]));
  return stored.tools.map(({ inputDefs, outputDefs, ...tool }) => ({
    ...tool,
    ...(inputDefs ? { inputSchema: { ...tool.inputSchema, $defs: joined(inputDefs) } } : {}),
    ...(outputDefs && tool.outputSchema ? { outputSchema: { ...tool.outputSchema, $defs: joined(outputDefs) } } : {}),
  }));
}
