/**
 * The runtime's features as the generator names them: each a module of runtime/features/ exporting one
 * `Feature` record, which src/app.ts imports when the package has the feature. A package carries the
 * runtime files (and the libraries) of its features only, found by the import walk (runtime-files.ts).
 */
import { budgetFlags } from "../../runtime/features/budget/flags.ts";
import { codeFlags } from "../../runtime/features/code/flags.ts";
import { metricsFlags } from "../../runtime/features/metrics/flags.ts";
import { oauthFlags } from "../../runtime/features/oauth/flags.ts";
import { otelFlags } from "../../runtime/features/otel/flags.ts";
import { redisFlags } from "../../runtime/features/redis/flags.ts";
import { tasksFlags } from "../../runtime/features/tasks/flags.ts";
import { tokenExchangeFlags } from "../../runtime/features/token-exchange/flags.ts";
import { upstreamOAuthFlags } from "../../runtime/features/upstream-oauth/flags.ts";
import { CORE_FLAG_SETS, packageFlagSets } from "../../runtime/package/core-flags.ts";
import type { FeatureName, FlagSet } from "../../runtime/package/server-flags.ts";
import type { AbsentFeature } from "../../runtime/package/spec-main.ts";
import { closest } from "../diagnostics/spelling.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";

export type FeatureModule = {
  name: FeatureName;
  /** Its Feature record, under runtime/features/. */
  file: string;
  exportName: string;
  summary: string;
  /** Its flags (the same data its record holds, read here without loading the feature's code). */
  flags?: FlagSet;
  /** It is a serving mode of the same name (--mode <name>). */
  mode?: true;
  /** Features it works on, added with it. */
  requires?: readonly FeatureName[];
};

const feature = (name: FeatureName, exportName: string, summary: string, more: Partial<FeatureModule> = {}) => ({
  name,
  file: `${name}/feature.ts`,
  exportName,
  summary,
  ...more,
});

// In the order their flags appear in --help and the READMEs.
export const FEATURE_MODULES: readonly FeatureModule[] = [
  feature("dynamic", "dynamicFeature", "--mode dynamic: tool search", { mode: true }),
  feature("budget", "budgetFeature", "--max-response-tokens: tool results cut to a token budget", {
    flags: budgetFlags,
  }),
  feature("code", "codeFeature", "--mode code: search_docs and execute", { mode: true, flags: codeFlags }),
  feature("oauth", "oauthFeature", "--auth-issuer: OAuth protected resource; the client's OAuth login", {
    flags: oauthFlags,
  }),
  feature("token-exchange", "tokenExchangeFeature", "--upstream-token-exchange: per-user upstream tokens", {
    flags: tokenExchangeFlags,
    requires: ["oauth"],
  }),
  feature("redis", "redisFeature", "--session-store: sessions in Redis", { flags: redisFlags }),
  feature("metrics", "metricsFeature", "--metrics: Prometheus metrics", { flags: metricsFlags }),
  // otel after redis (it traces redis's task store) and before tasks (which reads the store as otel left it).
  feature("otel", "otelFeature", "--otel: OpenTelemetry traces over OTLP/HTTP", { flags: otelFlags }),
  feature("tasks", "tasksFeature", "--task-ttl: long-running jobs served as MCP Tasks", { flags: tasksFlags }),
  feature("apps", "appsFeature", "ui://<server>/<tool>: views of tool results as tables and cards, for MCP Apps hosts"),
  // After oauth (whose caller it signs in) and redis (whose shared store keeps its tokens): configure reads theirs.
  feature(
    "upstream-oauth",
    "upstreamOAuthFeature",
    "--public-url, MCP_UPSTREAM_CLIENT_ID: the API called as each user, who signs in to it once",
    {
      flags: upstreamOAuthFlags,
      requires: ["oauth"],
    },
  ),
];

/** Every flag set a package can have: the core's and every feature's (docs/reference/server-flags.md documents them all). */
export const ALL_FLAG_SETS: readonly FlagSet[] = [
  ...CORE_FLAG_SETS,
  ...onceEach(FEATURE_MODULES.flatMap((feature) => (feature.flags ? [feature.flags] : []))),
];

/** Each variable once: two features reading one (MCP_UPSTREAM_CLIENT_ID) list it under the first. */
function onceEach(sets: FlagSet[]): FlagSet[] {
  const seen = new Set<string>();
  const fresh = (flag: FlagSet["flags"][number]) => !flag.env || flag.flag || !seen.has(flag.env);
  return sets.map((set) => {
    const flags = set.flags.filter(fresh);
    for (const flag of flags) if (flag.env) seen.add(flag.env);
    return flags.length === set.flags.length ? set : { ...set, flags };
  });
}

/** The flag sets of a package with `features`: the core's, --mode offering their modes, then theirs. */
export function featureFlagSets(features: readonly FeatureModule[]): FlagSet[] {
  return packageFlagSets(
    onceEach(features.flatMap((feature) => (feature.flags ? [feature.flags] : []))),
    features.filter((feature) => feature.mode).map((feature) => feature.name),
  );
}

/** The features a package lacks, each with the flags and env twins that name it (src/server.ts lists them). */
export function absentFeatures(features: readonly FeatureModule[]): AbsentFeature[] {
  // A variable a present feature reads too (MCP_UPSTREAM_CLIENT_ID) names no absent one.
  const present = new Set(features.flatMap((feature) => feature.flags?.flags.map((entry) => entry.env) ?? []));
  return FEATURE_MODULES.filter((feature) => !features.includes(feature)).map(({ name, flags }) => {
    const entries = (flags?.flags ?? []).filter((entry) => !entry.env || entry.flag || !present.has(entry.env));
    const envNames = (http: boolean) =>
      entries.flatMap((entry) => (entry.env && !!entry.http === http ? [entry.env] : []));
    const list = (key: string, values: string[]) => (values.length ? { [key]: values } : {});
    return {
      feature: name,
      ...list(
        "flags",
        entries.flatMap((entry) => (entry.flag ? [entry.flag] : [])),
      ),
      ...list("env", envNames(false)),
      ...list("httpEnv", envNames(true)),
    };
  });
}

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
 * --features, which wins), every one for `all`, none for `none`. Unasked, the core alone, plus `dynamic`
 * for a server with more tools than clients accept (MANY_TOOLS): its whole tools/list would not be usable,
 * `tasks` when a tool starts a long-running job (`has.tasks`): without it the job is not followed, `apps`
 * when a tool asks for a view (`has.views`: `ui:` or `x-mcp-ui` other than false), and `upstream-oauth` (with
 * `oauth`) when an operation signs in through an OpenAPI `authorizationCode` flow (`has.signIn`).
 */
export function packageFeatures(
  asked: readonly string[] | undefined,
  toolCount: number,
  has: { tasks?: boolean; views?: boolean; signIn?: boolean } = {},
): readonly FeatureModule[] {
  if (asked?.includes("all")) return FEATURE_MODULES;
  const defaults = [
    toolCount > CLIENT_TOOL_LIMIT && "dynamic",
    has.tasks && "tasks",
    has.views && "apps",
    has.signIn && "upstream-oauth",
  ];
  const chosen = asked ?? defaults.filter((name): name is string => typeof name === "string");
  const names = new Set(
    chosen.flatMap((name) => [name, ...(FEATURE_MODULES.find((f) => f.name === name)?.requires ?? [])]),
  );
  return FEATURE_MODULES.filter((feature) => names.has(feature.name));
}
