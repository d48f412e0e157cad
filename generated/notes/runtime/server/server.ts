// The transport-independent server: a registry of tools, resources and prompts, and `handleRequest`,
// which runs each request's method in its protocol revision with a deadline and cancellation.
import { isObject } from "../protocol/codec.ts";
import { ErrorCode, MetaKey } from "../protocol/constants.ts";
import { McpError, methodNotFound } from "../protocol/errors.ts";
import type {
  Implementation,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  Result,
  ServerCapabilities,
  Validator,
} from "../protocol/types.ts";
import { compileUriTemplate } from "../protocol/uri-template-match.ts";
import { collectHeaderParams, type HeaderParam } from "../transport/http/header-encoding.ts";
import { RequestContext } from "./context.ts";
import { Deadlines, type Expiring, type Lane, LazyAbort } from "./deadlines.ts";
import { revision2025 } from "./revision-2025.ts";
import { revision2026 } from "./revision-2026.ts";
import type { MethodCall, MethodSpec, RegisteredTemplate, ServerCore } from "./scope.ts";
import { createTokenSealer, type TokenSealer } from "./sealed-token.ts";
import { ChangeHub } from "./session.ts";
import type {
  Era,
  PromptDefinition,
  Registration,
  RequestChannel,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerOptions,
  ToolDefinition,
} from "./types.ts";

const DEFAULT_HANDLER_TIMEOUT_MS = 120_000;

/** What deferred registrations will add, so capabilities are right before they run. */
export type DeferredOffers = { tools?: boolean; resources?: boolean; prompts?: boolean; completions?: boolean };

/** Requests answered without the deferred entries: the handshake must not wait for a large catalog. */
const BEFORE_CATALOG = new Set(["initialize", "server/discover", "ping", "logging/setLevel"]);

export class McpServer implements ServerCore {
  readonly info: Implementation;
  readonly sealer: TokenSealer;
  readonly changes = new ChangeHub();
  readonly tools = new Map<string, ToolDefinition>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates = new Map<string, RegisteredTemplate>();
  readonly prompts = new Map<string, PromptDefinition>();
  /** Methods a feature adds, or serves in the core's place (the tasks feature's tasks/* and tools/call), by era. */
  readonly methods: Record<Era, Record<string, MethodSpec>> = { modern: {}, legacy: {} };
  private readonly compiled = new WeakMap<object, Validator>();
  private readonly headerParams = new Map<string, HeaderParam[]>();
  private readonly closeListeners = new Set<() => unknown>();
  private readonly deadlines = new Deadlines();
  private readonly deferred: Array<() => void> = [];
  private offers: DeferredOffers = {};

  constructor(readonly options: ServerOptions) {
    const { name, version, title, description, websiteUrl, icons } = options;
    this.info = dropUndefined({ name, version, title, description, websiteUrl, icons }) as Implementation;
    this.sealer = createTokenSealer(options.secret);
  }

  /** Registers entries on first need, so a server over a large API answers `initialize` without its catalog. */
  defer(register: () => void, offers: DeferredOffers): void {
    this.deferred.push(register);
    for (const key of ["tools", "resources", "prompts", "completions"] as const) this.offers[key] ||= offers[key];
  }

  /** Runs the deferred registrations, once, without list_changed notifications: nothing changed for clients.
   * All are taken first: a registration's own tool() settles again, which must not run the next one early. */
  settle(): void {
    if (this.deferred.length === 0) return;
    this.changes.mute(() => {
      for (const register of this.deferred.splice(0)) register();
    });
  }

  tool<Args = Record<string, unknown>>(definition: ToolDefinition<Args>): Registration {
    this.settle();
    if (definition.inputSchema?.type !== "object")
      throw new TypeError(`Tool ${definition.name}: inputSchema.type must be "object"`);
    const params = collectHeaderParams(definition.inputSchema);
    if (!params.ok) throw new TypeError(`Tool ${definition.name}: ${params.reason}`);
    this.headerParams.set(definition.name, params.params);
    return this.register(this.tools, definition.name, definition as ToolDefinition, "tools");
  }

  resource(definition: ResourceDefinition): Registration {
    return this.register(this.resources, definition.uri, definition, "resources");
  }

  resourceTemplate(definition: ResourceTemplateDefinition): Registration {
    const entry = { definition, matcher: compileUriTemplate(definition.uriTemplate) };
    return this.register(this.templates, definition.uriTemplate, entry, "resources");
  }

  prompt(definition: PromptDefinition): Registration {
    return this.register(this.prompts, definition.name, definition, "prompts");
  }

  /** Tells subscribed clients that a resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    this.changes.emit({ kind: "resource-updated", uri });
  }

  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = { logging: {} };
    const offers = this.deferred.length > 0 ? this.offers : {};
    if (this.tools.size > 0 || offers.tools) capabilities.tools = { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0 || offers.resources)
      capabilities.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0 || offers.prompts) capabilities.prompts = { listChanged: true };
    const completable = [...this.prompts.values(), ...[...this.templates.values()].map((entry) => entry.definition)];
    if (completable.some((definition) => definition.complete) || offers.completions) capabilities.completions = {};
    return { ...capabilities, ...this.options.capabilities };
  }

  /** A tools/call's `x-mcp-header` checks: its tool's and its forward target's (call_tool must not bypass them). */
  headerChecksFor(toolName: string, args: JsonObject): Array<{ params: HeaderParam[]; args: JsonObject }> {
    this.settle();
    const checks: Array<{ params: HeaderParam[]; args: JsonObject }> = [];
    const own = this.headerParams.get(toolName);
    if (own) checks.push({ params: own, args });
    const target = this.tools.get(toolName)?.forwardsTo?.(args);
    const targetParams = target && this.headerParams.get(target.name);
    if (target && targetParams)
      checks.push({ params: targetParams, args: isObject(target.arguments) ? target.arguments : {} });
    return checks;
  }

  /** The tools a tools/call runs (its own and its one-hop forward target), for checks made before any handler. */
  toolsOfCall(toolName: string, args: JsonObject): string[] {
    this.settle();
    const target = this.tools.get(toolName)?.forwardsTo?.(args);
    return target && target.name !== toolName ? [toolName, target.name] : [toolName];
  }

  /** A validator for a schema: the precompiled one if given, else compiled once via `options.compileSchema`. */
  validatorFor(schema: object | undefined, precompiled: Validator | undefined): Validator | undefined {
    if (precompiled || !schema || !this.options.compileSchema) return precompiled;
    let validator = this.compiled.get(schema);
    if (!validator) {
      validator = this.options.compileSchema(schema);
      this.compiled.set(schema, validator);
    }
    return validator;
  }

  /** Answers one request. Throws McpError for JSON-RPC errors; transports serialize them. */
  async handleRequest(request: JsonRpcRequest, channel: RequestChannel): Promise<Result> {
    if (this.deferred.length > 0 && !BEFORE_CATALOG.has(request.method)) this.settle();
    const params: JsonObject = request.params ?? {};
    const meta: JsonObject = isObject(params._meta) ? params._meta : {};
    // A 2026-07-28 request names its version in `_meta`; any other belongs to an initialize-based session.
    const revision = meta[MetaKey.protocolVersion] !== undefined ? revision2026 : revision2025;
    const scope = revision.scope(request, meta, channel);
    const own = this.methods[revision.era];
    const methods = Object.hasOwn(own, request.method) ? own : revision.methods;
    const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
    if (!method) throw methodNotFound(request.method);

    const timeoutMs = method.unbounded ? undefined : (this.options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS);
    const run = new RequestRun(request.method, timeoutMs);
    // A LazyAbort cancellation needs no AbortSignal on either side; a plain signal gets a listener.
    const cancellation = channel.cancellation;
    if (cancellation?.aborted) run.abort(cancellation.reason);
    else if (cancellation) cancellation.target = run;
    const unlisten = cancellation ? undefined : forwardAbort(channel.signal, run);
    if (timeoutMs !== undefined) this.deadlines.add(run, timeoutMs);
    try {
      const binding = { method: request.method, params, principal: channel.principal ?? "" };
      const answers = method.mrtr ? revision.answers(this.sealer, binding) : {};
      const ctx = new RequestContext({ request, meta, scope, channel, abort: run, answers });
      const call: MethodCall = { server: this, params, scope, channel, ctx, abort: run, binding, answers };
      return revision.shapeResult(await run.race(method.run(call)), request.method, this);
    } finally {
      this.deadlines.delete(run);
      if (cancellation?.target === run) cancellation.target = undefined;
      unlisten?.();
      run.finish();
    }
  }

  handleNotification(message: JsonRpcNotification, channel: RequestChannel): void {
    if (message.method === "notifications/initialized" && channel.session) channel.session.initialized = true;
    // notifications/cancelled is handled by the transport, which owns the in-flight requests.
  }

  onClose(listener: () => unknown): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Ends open `subscriptions/listen` streams gracefully; transports call this on shutdown. Settles once what the
   * listeners returned has (--otel's last spans sent), which a stdio server awaits before it exits. */
  close(): Promise<unknown> {
    const ending = [...this.closeListeners].map((listener) => listener());
    this.closeListeners.clear();
    return Promise.allSettled(ending);
  }

  private register<T>(map: Map<string, T>, key: string, value: T, kind: "tools" | "resources" | "prompts") {
    this.settle(); // first: the deferred entries are registered before any added at run time (tool() too)
    if (map.has(key)) throw new Error(`Duplicate ${kind} registration: ${key}`);
    map.set(key, value);
    this.changes.emit({ kind });
    return {
      remove: () => {
        if (map.get(key) !== value) return;
        map.delete(key);
        if (kind === "tools") this.headerParams.delete(key);
        this.changes.emit({ kind });
      },
    };
  }
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}

/** Aborts the run when the signal aborts; returns the undo. */
function forwardAbort(signal: AbortSignal, run: RequestRun): () => void {
  const onAbort = () => run.abort(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

/** The abort reason once a request has been answered. Shared: a fresh Error per request (stack capture)
 * costs +27–52% server CPU per call (bench/RESULTS.md "Micro-optimisations"). */
const REQUEST_FINISHED = new Error("Request finished");

/** One request's run: lazy cancellation, a deadline, and a race that answers a cancel without awaiting the handler. */
export class RequestRun extends LazyAbort implements Expiring {
  private interrupt: ((reason: unknown) => void) | undefined = undefined; // rejects race()'s promise while pending
  // Expiring: kept by the server's Deadlines.
  deadlineAt = 0;
  deadlineLane: Lane | undefined = undefined;
  older: Expiring | undefined = undefined;
  newer: Expiring | undefined = undefined;

  constructor(
    private readonly method: string,
    readonly timeoutMs: number | undefined, // the handler's deadline; none for e.g. subscriptions/listen
  ) {
    super();
  }

  /** The work's outcome, or a rejection with the abort reason as soon as this run is aborted. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.aborted) {
      work.catch(() => {}); // a late failure must not become an unhandled rejection
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.interrupt = reject;
      work.then(resolve, reject);
    });
  }

  override abort(reason?: unknown): void {
    if (this.aborted) return;
    super.abort(reason);
    const interrupt = this.interrupt;
    this.interrupt = undefined;
    interrupt?.(this.reason);
  }

  /** After the answer: a signal the handler kept (or reads later) reports the request as over. */
  finish(): void {
    this.interrupt = undefined;
    this.abort(REQUEST_FINISHED);
  }

  expire(): void {
    this.abort(new McpError(ErrorCode.RequestTimeout, `${this.method} timed out after ${this.timeoutMs} ms`));
  }
}
