// The seam between a generated server's core and its features. A feature is a folder of
// runtime/features/ whose feature.ts exports one `Feature` record: its flags (flags.ts, pure data, which
// the generator reads too), how it turns their values into options of the server and the HTTP transport,
// and what it adds (a serving mode, HTTP parts). The package's src/app.ts imports the features it was
// generated with and hands them to createSpecServer and runSpecServer. Nothing in the core imports a
// feature, so a package carries (and installs the libraries of) only the features it enabled.
import type { Validator } from "../protocol/types.ts";
import type { McpServer } from "../server/server.ts";
import type { AccessGate, ToolHandlerResult } from "../server/types.ts";
import type { HttpFeatures } from "../transport/http/http-features.ts";
import type { HttpServerOptions } from "../transport/http/server.ts";
import type { Exchange } from "../upstream/credentials.ts";
import type { Catalog, CatalogTool, CatalogToolset } from "./catalog-types.ts";
import type { ParsedFlags } from "./flag-parser.ts";
import type { FeatureName, FlagSet } from "./server-flags.ts";

export type { FeatureName };

/** What a serving mode sees of the catalog: every tool, the served ones, and why the rest cannot be called. */
export type ModeCatalog = {
  /** Every tool of the catalog, served or not (the search index covers them all). */
  all: readonly CatalogTool[];
  /** The tools --toolsets and --read-only serve. */
  served: ReadonlyMap<string, CatalogTool>;
  toolsets: readonly CatalogToolset[];
  /** Why a tool of the catalog that is not served cannot be reached. */
  notEnabled: (name: string) => string | undefined;
};

/** Limits of one code-mode `execute` (the `code` feature's flags). */
export type CodeLimits = {
  /** Wall time of the whole execute, API calls included (default 30 s). */
  timeoutMs: number;
  /** Heap of the sandbox (default 64 MB). */
  memoryBytes: number;
  /** API calls one execute may make (default 50). */
  maxCalls: number;
  /** Characters of the returned value's JSON and of the captured logs together, before the response budget. */
  maxOutputChars: number;
};

/** The settings a mode may read (code mode's flags; the response budget). */
export type ModeSettings = {
  limits?: Partial<CodeLimits>;
  allowDestructive: boolean;
  concurrency?: number;
  /** The package's features' fitResult for the mode's own results (absent: they pass as they are). */
  fitResult?: (result: ToolHandlerResult) => Promise<ToolHandlerResult>;
};

/** A value of --mode other than `all`: tools/list gives the mode's own tools, the API's stay unlisted. */
export type ServingMode = {
  name: "dynamic" | "code";
  /** The mode's own tools; an API tool of the same name is hidden while the mode serves. */
  tools: readonly { name: string }[];
  register(server: McpServer, catalog: ModeCatalog, settings: ModeSettings): void;
};

/** What a feature reads its flags from: the parsed command line and environment, and what came before it. */
export type FeatureInput = ParsedFlags & {
  env: NodeJS.ProcessEnv;
  /** What the features before it in the package's list set (token exchange reads OAuth's). */
  earlier: FeatureSetup;
};

/** The options of createSpecServer that features set (spec-server.ts takes them with its own). */
export type FeatureServerOptions = {
  /** Tokens of a tool result before it is cut (--max-response-tokens; the `budget` feature's, default 25,000). */
  maxResponseTokens?: number;
  /** Code mode's limits per execute (--code-timeout, --code-memory, --code-max-calls). */
  codeLimits?: Partial<CodeLimits>;
  /** Code mode: destructive tools run without the client's confirmation (--allow-destructive). */
  allowDestructive?: boolean;
  /** Code mode: executes that run at once, one sandbox thread each (--code-concurrency). */
  codeConcurrency?: number;
  /** Who may see and call what, made from the catalog (the `oauth` feature's scopes; --list-all-tools). */
  accessGate?: (catalog: () => Catalog) => AccessGate;
  /** Exchanges the caller's MCP token for an upstream token (the `token-exchange` feature). */
  exchangeToken?: Exchange;
};

/** What a feature's flags make of the server and its HTTP transport (merged over the core's options). */
export type FeatureSetup = {
  server?: FeatureServerOptions;
  http?: Partial<HttpServerOptions>;
};

/** What an http tool's call tells a feature shaping its result (the response budget's cut and next-page hint). */
export type UpstreamCall = {
  inputSchema: { [key: string]: unknown };
  /** The arguments as sent upstream (without `_fields`). */
  args: Record<string, unknown>;
  /** The tool takes `_fields` (a hint may suggest it). */
  offersFields: boolean;
  validateOutput?: Validator;
};

/** Where a tool result comes from, for Feature.fitResult. */
export type FitContext = {
  /** --max-response-tokens, when given (the feature knows its default). */
  maxTokens?: number;
} & (
  | { kind: "handler" }
  | {
      kind: "upstream";
      /** The answer's JSON (after `_fields`) when it is JSON, and the upstream's Link header. */
      answer: { json?: unknown; link?: string };
      call: UpstreamCall;
    }
);

export type ResultFitter = (result: ToolHandlerResult, context: FitContext) => Promise<ToolHandlerResult>;

export type Feature = {
  name: FeatureName;
  /** Its flags, in its own group of --help. */
  flags?: FlagSet;
  /** Its flags' values as options; a string is a usage error (exit 2). Features whose flags are unset add nothing. */
  configure?(input: FeatureInput): FeatureSetup | string;
  /** A serving mode (--mode <name>). */
  mode?: ServingMode;
  /** What it adds to the HTTP transport (serveHttp's `features`). */
  http?: HttpFeatures;
  /** Shapes every tool result before it is sent (the response budget cuts it to --max-response-tokens). */
  fitResult?: ResultFitter;
};

/** The HTTP parts of all `features`, merged. */
export function httpFeatures(features: readonly Feature[]): HttpFeatures {
  return Object.assign({}, ...features.map((feature) => feature.http ?? {}));
}

/** Every feature's fitResult, in order; undefined when none has one, and tool results pass as they are. */
export function resultFitter(features: readonly Feature[]): ResultFitter | undefined {
  const fitters = features.flatMap((feature) => (feature.fitResult ? [feature.fitResult] : []));
  if (fitters.length === 0) return undefined;
  return async (result, context) => {
    let fitted = result;
    for (const fitter of fitters) fitted = await fitter(fitted, context);
    return fitted;
  };
}

/** The feature serving `mode`, if the package has it. */
export function modeFeature(features: readonly Feature[], mode: string): ServingMode | undefined {
  return features.find((feature) => feature.mode?.name === mode)?.mode;
}
