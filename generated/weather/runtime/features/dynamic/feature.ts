// The `dynamic` feature: --mode dynamic, five tools to search, browse, describe and call a large API's
// tools (runtime/features/dynamic/dynamic-mode.ts), with its tool search (minisearch, stemmer).

import type { Feature } from "../../package/feature.ts";
import { registerDynamicTools } from "./dynamic-mode.ts";
import { DYNAMIC_TOOLS } from "./dynamic-tools.ts";

export const dynamicFeature: Feature = {
  name: "dynamic",
  mode: { name: "dynamic", tools: DYNAMIC_TOOLS, register: (server, catalog) => registerDynamicTools(server, catalog) },
};
