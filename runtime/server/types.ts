// Public types of the server API: what users register and what handlers receive.
import type { McpError } from "../protocol/errors.ts";
import type {
  CacheScope,
  ClientCapabilities,
  Completion,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  GetPromptResult,
  Icon,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  JsonRpcNotification,
  ListRootsResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
  Result,
  ServerCapabilities,
  Tool,
  Validator,
} from "../protocol/types.ts";
import type { AuthPrincipal } from "./auth-principal.ts";
import type { LazyAbort } from "./deadlines.ts";
import type { LegacySession } from "./session.ts";

export type ServerOptions = {
  name: string;
  version: string;
  title?: string;
  description?: string;
  instructions?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Items per page for the list methods (default 100). */
  pageSize?: number;
  /** A handler still running after this long is aborted and answered with a timeout error (default 120 s). */
  handlerTimeoutMs?: number;
  /** `ttlMs`/`cacheScope` put on 2026-era list and read results that do not set their own (default 0 / "private"). */
  cache?: { ttlMs?: number; cacheScope?: CacheScope };
  /** Compiles a JSON Schema into a validator, for tools registered without precompiled validators. */
  compileSchema?: (schema: object) => Validator;
  /** Key for sealing MRTR requestState and cursors; share it between replicas behind a load balancer
   * (default: random, this process only). Several keys rotate: the first seals, every one opens. */
  secret?: Uint8Array | readonly Uint8Array[];
  /** How long an MRTR requestState stays valid (default 10 min). */
  requestStateTtlMs?: number;
  /** Extra capabilities merged over the computed ones (e.g. `experimental`, `extensions`). */
  capabilities?: ServerCapabilities;
  /** A better message than "Unknown tool" for an unregistered name (e.g. left out by --toolsets, or close to one). */
  unknownToolMessage?: (name: string, auth: AuthPrincipal | undefined) => string | undefined;
  traceForward?: (tool: string, run: () => Promise<Result>) => Promise<Result>; // --otel: a forward's own span
  /** Who may see and call what: OAuth scopes per tool and resource (the `oauth` feature); absent: all of it. */
  toolGate?: AccessGate;
};

/** What the core asks before listing, calling or reading (runtime/features/oauth/scope-gate.ts makes one). */
export type AccessGate = {
  /** Why `auth` may not call the tool (its missing scopes), or undefined when it may. */
  toolRefusal(name: string, auth: AuthPrincipal | undefined): string | undefined;
  /** Why `auth` may not read `uri`, a resource that requires `required`, or undefined when it may. */
  resourceRefusal(
    required: readonly string[] | undefined,
    uri: string,
    auth: AuthPrincipal | undefined,
  ): string | undefined;
  /** Whether listings (tools/list, search, browse, docs) show the tool to `auth`. */
  showsTool(name: string, auth: AuthPrincipal | undefined): boolean;
  /** Whether resources/list or resources/templates/list shows an entry that requires `required`. */
  showsResource(required: readonly string[] | undefined, auth: AuthPrincipal | undefined): boolean;
  /** The scopes a tool requires (for the HTTP 403 challenge). */
  required(name: string): readonly string[] | undefined;
  /** Every scope some tool or resource requires (RFC 9728 `scopes_supported`). */
  all(): readonly string[];
};

export type Era = "modern" | "legacy";

export type HandlerContext = {
  /** Aborted when the client cancels, the connection drops, or the handler times out. */
  signal: AbortSignal;
  requestId: RequestId;
  method: string;
  /** The request's `_meta` (empty object when absent). */
  meta: JsonObject;
  era: Era;
  protocolVersion: string;
  sessionId?: string;
  /** The authenticated caller, when the server validates OAuth access tokens (`--auth-issuer`); else absent. */
  auth?: AuthPrincipal;
  /** The HTTP request's X-Request-Id (or one the server made), for logs and `upstream.requestIdHeader`. */
  httpRequestId?: string;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  /** Sends `notifications/progress` when the request carried a progressToken; non-increasing values are dropped. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` if the client's log level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Asks the client for input: a real request in the 2025 era, an MRTR round trip in the 2026 era. */
  elicit(params: ElicitParams): Promise<ElicitResult>;
  sample(params: CreateMessageParams): Promise<CreateMessageResult>;
  listRoots(): Promise<ListRootsResult>;
  /** Several inputs in one round trip; keys must be stable across MRTR retries. */
  requestInputs(requests: Record<string, InputRequest>): Promise<Record<string, InputResponse>>;
  /** The error to throw when nothing exists at `uri` (-32602 in the 2026 era, -32002 in the 2025 era). */
  notFound(uri: string, message?: string): McpError;
  /** With the tasks feature: `run(work)` runs as an MCP task when the client takes one, else inline. */
  task?: { run(work: (task: TaskControl) => Promise<ToolHandlerResult>): Promise<Result> };
};

/** A task's work sees: its cancellation (tasks/cancel, TTL), a status line, and input asked of the client. */
export type TaskControl = Pick<HandlerContext, "signal" | "requestInputs"> & { status(message: string): void };

// Not Omit<CallToolResult, "content">: Omit over Result's index signature would erase isError and the rest.
export type ToolHandlerResult = Result & { content?: ContentBlock[]; structuredContent?: unknown; isError?: boolean };

export type ToolDefinition<Args = Record<string, unknown>> = Tool & {
  /** Precompiled (ajv standalone) validator for inputSchema; otherwise `compileSchema` is used if configured. */
  validateInput?: Validator;
  validateOutput?: Validator;
  /** Callable by `tools/call` but left out of `tools/list` (dynamic mode serves a large API's tools so). */
  unlisted?: boolean;
  /** For a forwarding tool (call_tool): the target a call with `args` runs, so pre-handler checks cover it. */
  forwardsTo?: (args: Record<string, unknown>) => { name: string; arguments: unknown } | undefined;
  handler: (args: Args, ctx: HandlerContext) => ToolHandlerResult | Promise<ToolHandlerResult>;
};

export type ResourceReadResult = Omit<ReadResourceResult, "resultType"> & { resultType?: string };

export type ResourceDefinition = Resource & {
  /** OAuth scopes a caller's token must grant to read it (and see it listed); the server's toolGate checks them. */
  scopes?: readonly string[];
  read: (uri: string, ctx: HandlerContext) => ResourceReadResult | Promise<ResourceReadResult>;
};

export type CompletionContext = { arguments: Record<string, string>; ctx: HandlerContext };
export type CompleteFunction = (
  value: string,
  context: CompletionContext,
) => string[] | Completion | Promise<string[] | Completion>;

export type ResourceTemplateDefinition = ResourceTemplate & {
  /** OAuth scopes a caller's token must grant to read its resources (and see it listed, complete it). */
  scopes?: readonly string[];
  read: (
    uri: string,
    variables: Record<string, string>,
    ctx: HandlerContext,
  ) => ResourceReadResult | Promise<ResourceReadResult>;
  /** Completion for template variables, keyed by variable name. */
  complete?: Record<string, CompleteFunction>;
};

export type PromptDefinition = Prompt & {
  get: (args: Record<string, string>, ctx: HandlerContext) => GetPromptResult | Promise<GetPromptResult>;
  /** Completion for prompt arguments, keyed by argument name. */
  complete?: Record<string, CompleteFunction>;
};

export type Registration = { remove(): void };

/** How the server core answers one request; implemented by each transport. */
export type RequestChannel = {
  signal: AbortSignal;
  /** The same cancellation, lazily: when present the server never reads `signal` (then a lazy getter). */
  cancellation?: LazyAbort;
  /** A notification belonging to this request (progress, log, subscription events). */
  notify(message: JsonRpcNotification): void;
  /** A server-to-client request tied to this request (2025 era only). */
  request?(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<Result>;
  session?: LegacySession;
  /** Who is calling (e.g. a digest of the bearer token); binds MRTR requestState to its caller. */
  principal?: string;
  /** The validated OAuth principal (--auth-issuer), handed to handlers as ctx.auth. */
  auth?: AuthPrincipal;
  /** The HTTP request's id (X-Request-Id), handed to handlers as ctx.httpRequestId. */
  httpRequestId?: string;
  traceparent?: string; // the HTTP request's W3C `traceparent` header (a gateway's trace), for --otel
  record?: { trace?: Record<string, string> }; // HTTP: its access line's; --otel adds the span's ids as `trace`
};
