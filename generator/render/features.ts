/**
 * The runtime's features as the generator names them: each a module of runtime/features/ exporting one
 * `Feature` record, which src/app.ts imports when the package has the feature. A package carries the
 * runtime files (and the libraries) of its features only, found by the import walk (runtime-files.ts).
 */
import type { FeatureName } from "../../runtime/package/feature.ts";

export type FeatureModule = { name: FeatureName; file: string; exportName: string; summary: string };

export const FEATURE_MODULES: readonly FeatureModule[] = [
  { name: "code", file: "code.ts", exportName: "codeFeature", summary: "--mode code: search_docs and execute" },
  { name: "dynamic", file: "dynamic.ts", exportName: "dynamicFeature", summary: "--mode dynamic: tool search" },
  { name: "metrics", file: "metrics.ts", exportName: "metricsFeature", summary: "--metrics: Prometheus metrics" },
  { name: "oauth", file: "oauth.ts", exportName: "oauthFeature", summary: "--auth-issuer: OAuth protected resource" },
  { name: "redis", file: "redis.ts", exportName: "redisFeature", summary: "--session-store: sessions in Redis" },
];

/** The features a package is generated with. Every one, until generate chooses them (issue 28 §3). */
export function packageFeatures(): readonly FeatureModule[] {
  return FEATURE_MODULES;
}
