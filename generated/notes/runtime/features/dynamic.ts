// The `dynamic` feature: --mode dynamic, five tools to search, browse, describe and call a large API's
// tools (runtime/package/dynamic-mode.ts), with its tool search (minisearch, stemmer).
import { registerDynamicTools } from "../package/dynamic-mode.ts";
import { DYNAMIC_TOOLS } from "../package/dynamic-tools.ts";
import type { Feature } from "../package/feature.ts";

export const dynamicFeature: Feature = {
  name: "dynamic",
  mode: { name: "dynamic", tools: DYNAMIC_TOOLS, register: (server, catalog) => registerDynamicTools(server, catalog) },
};
