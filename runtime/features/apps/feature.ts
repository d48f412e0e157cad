// The `apps` feature: tool results shown to people as tables and cards (MCP Apps, SEP-1865), as README
// "Views (MCP Apps)" says.
import type { Feature } from "../../package/feature.ts";

export const appsFeature: Feature = { name: "apps" };
