/**
 * The runtime's features as the generator names them: each a module of runtime/features/ exporting one
 * `Feature` record, which src/app.ts imports when the package has the feature. A package carries the
 * runtime files (and the libraries) of its features only, found by the import walk (runtime-files.ts).
 */
import type { FeatureName } from "../../runtime/package/feature.ts";
import type { FlagGroup } from "../../runtime/package/server-flags.ts";
import { closest } from "../diagnostics/spelling.ts";

export type FeatureModule = { name: FeatureName; file: string; exportName: string; summary: string };

export const FEATURE_MODULES: readonly FeatureModule[] = [
  { name: "code", file: "code/feature.ts", exportName: "codeFeature", summary: "--mode code: search_docs and execute" },
  { name: "dynamic", file: "dynamic/feature.ts", exportName: "dynamicFeature", summary: "--mode dynamic: tool search" },
  {
    name: "metrics",
    file: "metrics/feature.ts",
    exportName: "metricsFeature",
    summary: "--metrics: Prometheus metrics",
  },
  {
    name: "oauth",
    file: "oauth/feature.ts",
    exportName: "oauthFeature",
    summary: "--auth-issuer: OAuth protected resource",
  },
  {
    name: "redis",
    file: "redis/feature.ts",
    exportName: "redisFeature",
    summary: "--session-store: sessions in Redis",
  },
];

/** The names `--features` and the spec's `features` take: each feature, `all` for every one, `none` for the core alone. */
export const FEATURE_NAMES: readonly string[] = ["all", "none", ...FEATURE_MODULES.map((feature) => feature.name)];

/** Why a list of feature names cannot be used (an unknown name, with the closest known one), or undefined. */
export function featuresProblem(names: readonly string[]): string | undefined {
  const unknown = names.find((name) => !FEATURE_NAMES.includes(name));
  if (unknown === undefined) return undefined;
  const close = closest(unknown, FEATURE_NAMES);
  return `unknown feature '${unknown}'${close ? ` (did you mean '${close}'?)` : ""}; the features are ${FEATURE_NAMES.join(", ")}`;
}

/**
 * The features a package is generated with: those asked for (the spec's `features`, or generate's
 * --features, which wins), every one for `all`. Unasked, every feature for now: the smaller defaults
 * (the core, plus dynamic for servers over 128 tools) wait until every test names the features it uses.
 */
export function packageFeatures(asked?: readonly string[]): readonly FeatureModule[] {
  if (asked === undefined || asked.includes("all")) return FEATURE_MODULES;
  return FEATURE_MODULES.filter((feature) => asked.includes(feature.name));
}

/** The flag groups that belong to a feature: a package without it documents none of their flags. */
const GROUP_FEATURE: Partial<Record<FlagGroup, FeatureName>> = {
  code: "code",
  oauth: "oauth",
  // The exchange works on the caller's validated token, so it is documented with OAuth.
  "token-exchange": "oauth",
  redis: "redis",
  metrics: "metrics",
};

/** Whether a package with `features` serves the flags of `group`. */
export function servesGroup(features: readonly FeatureModule[], group: FlagGroup): boolean {
  const feature = GROUP_FEATURE[group];
  return feature === undefined || features.some((f) => f.name === feature);
}
