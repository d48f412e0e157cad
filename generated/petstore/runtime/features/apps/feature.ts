// The `apps` feature: tool results shown to people as tables and cards (MCP Apps, SEP-1865), as README
// "Views (MCP Apps)" says. The generator chose each tool's view (catalog.json's `view`); this serves them.
import type { Feature } from "../../package/feature.ts";
import { serveViews } from "./view-serving.ts";

export const appsFeature: Feature = { name: "apps", serve: serveViews };
