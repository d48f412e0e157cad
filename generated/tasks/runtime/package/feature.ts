// The seam between the core and the features (runtime/README.md): nothing in the core imports a feature, so a
// package carries (and installs the libraries of) only the features src/app.ts hands to it.
import type { JsonRpcRequest, Result, Validator } from "../protocol/types.ts";
import type { McpServer } from "../server/server.ts";
import type { AccessGate, HandlerContext, RequestChannel, ToolHandlerResult } from "../server/types.ts";
import type { HttpFeatures } from "../transport/http/http-features.ts";
import type { HttpServerOptions } from "../transport/http/server.ts";
import type { UpstreamCall as Signed, UpstreamConfig, UpstreamResponse } from "../upstream/types.ts";
import type { Catalog, CatalogTool, CatalogToolset, HttpBinding, TaskBinding } from "./catalog-types.ts";
import type { ParsedFlags } from "./flag-parser.ts";
import type { FeatureName } from "./server-flags.ts";

/** What a mode sees: every tool (its search covers them all), those served, and why one not served is not. */
export type ModeCatalog = {
  all: readonly CatalogTool[];
  served: ReadonlyMap<string, CatalogTool>;
  toolsets: readonly CatalogToolset[];
  /** Why a name no served tool has is not served: left out, or renamed (to a tool `shown` to the caller). */
  notEnabled: (name: string, shown: (name: string) => boolean) => string | undefined;
};
/** One code-mode `execute`'s limits (the `code` feature's flags); maxOutputChars: returned JSON plus logs. */
export type CodeLimits = { timeoutMs: number; memoryBytes: number; maxCalls: number; maxOutputChars: number };
/** What a mode may read: code mode's flags, and the features' fitResult for its own results (absent: none). */
type ModeFlags = "codeLimits" | "allowDestructive" | "codeConcurrency" | "instrument"; // and --otel's spans
export type ModeSettings = Pick<FeatureServerOptions, ModeFlags> & {
  fitResult?: (result: ToolHandlerResult) => Promise<ToolHandlerResult>;
};
/** A --mode other than `all`: tools/list gives its own tools; an API tool of the same name is hidden meanwhile. */
export type ServingMode = {
  name: "dynamic" | "code";
  tools: readonly { name: string }[];
  register(server: McpServer, catalog: ModeCatalog, settings: ModeSettings): void;
};
/** The parsed flags and env, and what the features before it in the list set (token exchange reads OAuth's). */
export type FeatureInput = ParsedFlags & { env: NodeJS.ProcessEnv; earlier: FeatureSetup };
/** The options of createSpecServer that features set from their flags (the features' flags.ts say what each does). */
export type FeatureServerOptions = {
  maxResponseTokens?: number;
  codeLimits?: Partial<CodeLimits>;
  allowDestructive?: boolean;
  codeConcurrency?: number;
  /** Who may see and call what, made from the catalog (the `oauth` feature's scopes; --list-all-tools). */
  accessGate?: (catalog: () => Catalog) => AccessGate;
  userToken?: UserToken; // each caller's own upstream token: the token-exchange or the upstream-oauth feature's
  sharedStore?: SharedStore; // the redis feature's store, shared by every instance (--task-store, else --session-store)
  jobs?: JobServing; // serves the tools bound to an upstream job (`http.task`): the tasks feature
  instrument?: Instrument; // the otel feature's spans, with --otel only: without it nothing is wrapped
};

/** An upstream call as its span sees it: `target` the tool (or "resource"), `call.url` a job's poll or cancel URL. */
export type TracedCall = { target: string; binding: HttpBinding; upstream: UpstreamConfig; call: Signed };
/** Tracing (the `otel` feature): each request's handling, and each upstream call given the headers it adds. */
export type Instrument = {
  request(request: JsonRpcRequest, channel: RequestChannel, handle: () => Promise<Result>): Promise<Result>;
  upstream(call: TracedCall, send: (headers: Record<string, string>) => Answer): Answer;
  /** A feature's own step (code mode's execute, each bridged call) in a child span of the active one. */
  span<T>(name: string, attributes: Record<string, string | number>, run: () => Promise<T>): Promise<T>;
  bind<F extends (...args: never[]) => unknown>(fn: F): F; // runs in this trace, wherever it is called from
};
type Answer = Promise<UpstreamResponse>;

/** JSON text by key with a TTL, and sets of strings: enough for records every instance reads and writes. */
export type SharedStore = {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  add(setKey: string, member: string, ttlMs: number): Promise<void>;
  members(setKey: string): Promise<string[]>;
  claim?(key: string, value: string, ttlMs: number): Promise<boolean>; // set only if absent (a lock, a one-time use)
};

/** The caller's own token for `binding` (undefined: the spec's credentials apply), which errors name as `source`;
 * `rejected`: the API answered `signed` with 401; true: renewed or forgotten, so try once more. */
export type UserToken = {
  source: string;
  bearer(ctx: HandlerContext, upstream: UpstreamConfig, binding: HttpBinding): Promise<string | undefined>;
  rejected?(ctx: HandlerContext, signed: Signed): Promise<boolean>;
};

type Args = Record<string, unknown>;
type SendOptions = Pick<Signed, "url" | "method" | "once">;

/** What the core lends the feature serving a job tool: signing as the caller, sending, and making the result. */
export type UpstreamAccess = {
  /** The caller's upstream credentials, resolved once: a job is polled after its request has been answered. */
  signedAs(ctx: HandlerContext): Promise<Signed>;
  /** The tool's own request, or `method` to `url` (a job's), as upstream/types.ts's UpstreamCall says. */
  send(signed: Signed, args: Args, signal: AbortSignal, how?: SendOptions): Promise<UpstreamResponse>;
  /** The tool result of an answer, as for any upstream tool: output checked, `_fields` applied, budget fit. */
  answer(response: UpstreamResponse, args: Args): Promise<ToolHandlerResult>;
  baseUrl(): string; // the upstream's, which poll and cancel URLs are resolved against
};

export type JobTool = CatalogTool & { http: HttpBinding & { task: TaskBinding } };

/** The tasks feature's part of a server: job tools' handlers; `serve` adds (or wraps) its methods and capabilities. */
export type JobServing = {
  handler(tool: JobTool, upstream: UpstreamAccess): (args: Args, ctx: HandlerContext) => Promise<Result>;
  serve(server: McpServer): void;
  toolFields: Pick<CatalogTool, "execution">; // added to a job tool's listing (2025's taskSupport)
};

/** What a feature's flags make of the server and its HTTP transport (merged over the core's options). */
export type FeatureSetup = { server?: FeatureServerOptions; http?: Partial<HttpServerOptions> };

/** An http tool's call, for the response budget's cut and next-page hint: `args` as sent (without `_fields`). */
export type UpstreamCall = {
  inputSchema: { [key: string]: unknown };
  args: Args;
  offersFields: boolean;
  validateOutput?: Validator;
};

/** Where a tool result comes from; `maxTokens`: --max-response-tokens when given; `answer.json` is after `_fields`. */
export type FitContext = { maxTokens?: number } & (
  | { kind: "handler" }
  | { kind: "upstream"; answer: { json?: unknown; link?: string }; call: UpstreamCall }
);

export type ResultFitter = (result: ToolHandlerResult, context: FitContext) => Promise<ToolHandlerResult>;

export type Feature = {
  name: FeatureName; // its flags are in its flags.ts, which the generator reads (generator/normalize/features.ts)
  /** Its flags' values as options; a string is a usage error (exit 2). Features whose flags are unset add nothing. */
  configure?(input: FeatureInput): FeatureSetup | string;
  mode?: ServingMode;
  http?: HttpFeatures;
  /** Shapes every tool result before it is sent (the response budget cuts it to --max-response-tokens). */
  fitResult?: ResultFitter;
  serve?(server: McpServer, catalog: () => Catalog): void; // its own part of the server, once the core's is set
};

export function resultFitter(features: readonly Feature[]): ResultFitter | undefined {
  const fitters = features.flatMap((feature) => (feature.fitResult ? [feature.fitResult] : []));
  if (fitters.length === 0) return undefined;
  return (result, context) =>
    fitters.reduce(async (fitted, fitter) => fitter(await fitted, context), Promise.resolve(result));
}
