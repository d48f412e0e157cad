// The seam between a generated server's core and its features. A feature is a module of
// runtime/features/ exporting one `Feature` record; the package's src/app.ts imports the ones it was
// generated with and hands them to createSpecServer and runSpecServer. Nothing in the core imports a
// feature module, so a package carries (and installs the libraries of) only the features it enabled.

import type { CodeLimits } from "../features/code/code-sandbox-types.ts";
import type { McpServer } from "../server/server.ts";
import type { HttpFeatures } from "../transport/http/http-features.ts";
import type { ManifestTool, ManifestToolset } from "./manifest-types.ts";

/** The features a package can be generated with (the core needs no name). */
export type FeatureName = "dynamic" | "code" | "oauth" | "redis" | "metrics";

/** What a serving mode sees of the catalog: every tool, the served ones, and why the rest cannot be called. */
export type ModeCatalog = {
  /** Every tool of the catalog, served or not (the search index covers them all). */
  all: readonly ManifestTool[];
  /** The tools --toolsets and --read-only serve. */
  served: ReadonlyMap<string, ManifestTool>;
  toolsets: readonly ManifestToolset[];
  /** Why a tool of the catalog that is not served cannot be reached. */
  notEnabled: (name: string) => string | undefined;
};

/** The settings a mode may read (code mode's flags; the response budget). */
export type ModeSettings = {
  limits?: Partial<CodeLimits>;
  allowDestructive: boolean;
  concurrency?: number;
  maxTokens: number;
};

/** A value of --mode other than `all`: tools/list gives the mode's own tools, the API's stay unlisted. */
export type ServingMode = {
  name: "dynamic" | "code";
  /** The mode's own tools; an API tool of the same name is hidden while the mode serves. */
  tools: readonly { name: string }[];
  register(server: McpServer, catalog: ModeCatalog, settings: ModeSettings): void;
};

export type Feature = {
  name: FeatureName;
  /** A serving mode (--mode <name>). */
  mode?: ServingMode;
  /** What it adds to the HTTP transport (serveHttp's `features`). */
  http?: HttpFeatures;
};

/** The HTTP parts of all `features`, merged. */
export function httpFeatures(features: readonly Feature[]): HttpFeatures {
  return Object.assign({}, ...features.map((feature) => feature.http ?? {}));
}

/** The feature serving `mode`, if the package has it. */
export function modeFeature(features: readonly Feature[], mode: string): ServingMode | undefined {
  return features.find((feature) => feature.mode?.name === mode)?.mode;
}
