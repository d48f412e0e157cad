// The generic MCP client: era detection at connect, MRTR retries, typed helpers; what differs by
// protocol revision is in revision.ts. Typed per-tool wrappers are generated on top of `callTool`.
import { isObject } from "../protocol/codec.ts";
import { ErrorCode, MetaKey } from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  JsonRpcNotification,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  ReadResourceResult,
  Result,
  SubscriptionFilter,
  Validator,
} from "../protocol/types.ts";
import { createHttpTransport, type HttpTarget } from "../transport/http/client.ts";
import { collectHeaderParams, type HeaderParam, headerParamValues } from "../transport/http/header-encoding.ts";
import { type StdioTarget, spawnStdioTransport } from "../transport/stdio/client.ts";
import { negotiateEra, type ServerDescription } from "./negotiation.ts";
import { type ClientRevision, type Era, revision2026 } from "./revision.ts";
import { type OutputValidators, ToolOutputCheck } from "./tool-output.ts";
import { answerServerRequest, type ClientHandlers, type ClientTransport, capabilitiesFor } from "./transport.ts";

export type ConnectTarget = HttpTarget | StdioTarget;

export type ClientOptions = {
  clientInfo?: Implementation;
  /** Force a protocol version (skips era detection); default: try 2026-07-28, fall back to initialize. */
  protocolVersion?: string;
  /** Declared capabilities; default: derived from the handlers given. */
  capabilities?: ClientCapabilities;
  handlers?: ClientHandlers;
  /** Per-request timeout (default 60 s). */
  requestTimeoutMs?: number;
  /** How long the stdio era probe waits before assuming a 2025-era server (default 3 s). */
  probeTimeoutMs?: number;
  /** Where warnings go (rejected tool definitions); default stderr. */
  warn?: (message: string) => void;
  /** Precompiled structuredContent validators by tool name; a result that breaks one rejects with ToolOutputError. */
  outputValidators?: OutputValidators | (() => OutputValidators);
  /** Compiles outputSchemas learned from tools/list (e.g. protocol/compile-schema.ts); without it they go unchecked. */
  compileSchema?: (schema: object) => Validator;
  /** Tool calls that may become tasks, awaited to their result (the tasks feature's `clientTasks`). */
  tasks?: ClientTasks;
};

type ToolSend = (extra?: JsonObject) => Promise<CallToolResult>;
/** How tools/call goes when it may answer with a task; `send` sends it, with `extra` params (2025's `task`). */
export type ClientTasks = {
  capabilities: ClientCapabilities;
  callTool(client: McpClient, name: string, options: CallOptions, send: ToolSend): Promise<CallToolResult>;
};

/** What a typed client knows of each tool: its arguments and its structuredContent (the generated ToolMap). */
export type ToolTypes = { [name: string]: { args: object; result: unknown } };
/** Each prompt's arguments (the generated PromptMap). */
export type PromptTypes = { [name: string]: object };
/** An untyped client: any tool or prompt name, any arguments. */
export type AnyTools = { [name: string]: { args: Record<string, unknown>; result: unknown } };
export type AnyPrompts = { [name: string]: Record<string, string> };

/** A tool's result, with structuredContent typed by its outputSchema. */
export type ToolCallResult<Tools extends ToolTypes = AnyTools, N extends keyof Tools = string> = CallToolResult & {
  structuredContent?: Tools[N]["result"];
};

/** The arguments after a tool's or prompt's name: optional when it requires none. */
// biome-ignore lint/complexity/noBannedTypes: `{}` is exactly "an object with no required keys" here.
type ArgsAfterName<Args> = {} extends Args ? [args?: Args, options?: CallOptions] : [args: Args, options?: CallOptions];
export type ToolCallArgs<Tools extends ToolTypes, N extends keyof Tools> = ArgsAfterName<Tools[N]["args"]>;
export type PromptGetArgs<Prompts extends PromptTypes, N extends keyof Prompts> = ArgsAfterName<Prompts[N]>;

type Progress = { progress: number; total?: number; message?: string };
export type CallOptions = {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: Progress) => void;
  /** Extra `_meta` for the request. */
  meta?: JsonObject;
  /** With the tasks feature's `clientTasks`: each state seen of the task a tools/call became. */
  onTask?: (task: { taskId: string; status: string; statusMessage?: string }) => void;
};

export type Subscription = { acknowledged: SubscriptionFilter; close(): void; closed: Promise<void> };
type ListOptions = CallOptions & { cursor?: string };
type RequestOptions = CallOptions & { headers?: Record<string, string> };

const MAX_INPUT_ROUNDS = 10;

/** The MCP client; a generated one is `McpClient<ToolMap, PromptMap>`, checking names and arguments at compile time. */
export class McpClient<Tools extends ToolTypes = AnyTools, Prompts extends PromptTypes = AnyPrompts> {
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  protocolVersion = "";
  server: ServerDescription = { capabilities: {}, supportedVersions: [] };
  /** Set by setLogLevel; the 2026 era sends it in every request's `_meta`. */
  logLevel?: LoggingLevel;
  /** What this client does differently for the negotiated revision (2026 until negotiation says otherwise). */
  private revision: ClientRevision = revision2026;
  private progressCounter = 0;
  private listenCounter = 0;
  private readonly progressListeners = new Map<string, (progress: Progress) => void>();
  private readonly notificationListeners = new Set<(message: JsonRpcNotification) => void>();
  private readonly toolHeaders = new Map<string, HeaderParam[]>();
  private readonly toolOutput: ToolOutputCheck;
  private readonly warn: (message: string) => void;

  constructor(
    readonly transport: ClientTransport,
    private readonly options: ClientOptions = {},
  ) {
    this.clientInfo = options.clientInfo ?? { name: "mcpgen-client", version: "0.1.0" };
    const declared = options.capabilities ?? capabilitiesFor(options.handlers);
    const extensions = options.tasks && { ...declared.extensions, ...options.tasks.capabilities.extensions };
    this.capabilities = extensions ? { ...declared, extensions } : declared;
    this.warn = options.warn ?? ((message) => process.stderr.write(`[mcp client] warning: ${message}\n`));
    this.toolOutput = new ToolOutputCheck(options.outputValidators, options.compileSchema, this.warn);
    transport.setIncomingHandlers({
      onRequest: (request) => answerServerRequest(this.options.handlers, request.method, request.params),
      onNotification: (message) => this.dispatchNotification(message),
    });
  }

  /** Which protocol era the server speaks: "modern" (2026-07-28) or "legacy" (2025, initialize-based). */
  get era(): Era {
    return this.revision.era;
  }

  /** Detects the era and version (see negotiation.ts); `connect()` calls this. */
  async start(): Promise<void> {
    const outcome = await negotiateEra(this.transport, {
      clientInfo: this.clientInfo,
      capabilities: this.capabilities,
      protocolVersion: this.options.protocolVersion,
      probeTimeoutMs: this.options.probeTimeoutMs ?? (this.transport.kind === "stdio" ? 3_000 : undefined),
    });
    this.revision = outcome.revision;
    this.protocolVersion = outcome.protocolVersion;
    this.server = outcome.server;
  }

  /** Any request. Adds the revision's `_meta`, runs MRTR rounds through the handlers, and returns the final result. */
  async request<T extends Result = Result>(method: string, params: JsonObject = {}, options: RequestOptions = {}) {
    try {
      return (await this.requestOnce(method, params, options)) as T;
    } catch (error) {
      // A 404 (only HTTP answers carry a status) to a session's request: the session is gone; start anew, retry once.
      if (!this.revision.httpSession || (error as { status?: unknown } | undefined)?.status !== 404) throw error;
      await this.start();
      return (await this.requestOnce(method, params, options)) as T;
    }
  }

  private async requestOnce(method: string, params: JsonObject, options: RequestOptions): Promise<Result> {
    const meta: JsonObject = { ...(isObject(params._meta) ? params._meta : {}), ...options.meta };
    let progressToken: string | undefined;
    if (options.onProgress) {
      progressToken = `progress-${++this.progressCounter}`;
      meta.progressToken = progressToken;
      this.progressListeners.set(progressToken, options.onProgress);
    }
    Object.assign(meta, this.revision.requestMeta(this));
    const { _meta: _callerMeta, ...base } = params;
    if (Object.keys(meta).length > 0) base._meta = meta;
    try {
      // MRTR: answer `input_required` rounds through the handlers until the final result.
      for (let round = 0, current = base; round <= MAX_INPUT_ROUNDS; round++) {
        const result = await this.transport.request(method, current, options);
        // The spec reads a result without `resultType` as "complete" (2025 results never carry one).
        if (result.resultType === undefined) return { ...result, resultType: "complete" };
        if (result.resultType !== "input_required") return result;
        current = { ...base, inputResponses: await this.answerInputs(result.inputRequests) };
        // The state is echoed byte for byte, and only when the server sent one (MRTR client rules).
        if (typeof result.requestState === "string") current.requestState = result.requestState;
      }
      throw new McpError(ErrorCode.InternalError, `${method}: the server kept asking for input`);
    } finally {
      if (progressToken) this.progressListeners.delete(progressToken);
    }
  }

  /** All tools (following cursors) unless a cursor is given; tools with invalid `x-mcp-header` are dropped. */
  async listTools(options: ListOptions = {}): Promise<ListToolsResult> {
    const result = await this.listAll<ListToolsResult>("tools/list", "tools", options);
    const listed = result.tools ?? [];
    this.toolOutput.learn(listed);
    const tools = listed.filter((tool) => {
      const params = collectHeaderParams(tool.inputSchema);
      if (params.ok) this.toolHeaders.set(tool.name, params.params);
      else this.toolHeaders.delete(tool.name);
      if (!params.ok) this.warn(`Ignoring tool "${tool.name}": ${params.reason}`);
      return params.ok;
    });
    return { ...result, tools };
  }

  /** Calls a tool; a result whose structuredContent breaks the tool's outputSchema rejects with ToolOutputError. */
  async callTool<N extends keyof Tools & string>(name: N, ...[args, options]: ToolCallArgs<Tools, N>) {
    // A client that compiles schemas learns them from tools/list, once, before its first call.
    if (this.toolOutput.needsListing(name)) await this.listTools().catch(() => undefined);
    const send = (extra?: JsonObject) =>
      this.sendToolCall(name, (args ?? {}) as Record<string, unknown>, options ?? {}, extra);
    const tasks = this.options.tasks;
    const result = tasks ? await tasks.callTool(this as never, name, options ?? {}, send) : await send();
    this.toolOutput.check(name, result);
    return result as ToolCallResult<Tools, N>;
  }

  private async sendToolCall(name: string, args: Record<string, unknown>, options: CallOptions, extra?: JsonObject) {
    const params = { name, arguments: args, ...extra };
    // Over HTTP in 2026, `x-mcp-header` arguments also go in headers, as the tool's listed inputSchema says.
    const mirrors = this.transport.kind === "http" && this.revision.mirrorsParamHeaders;
    if (mirrors && !this.toolHeaders.has(name)) await this.listTools().catch(() => undefined);
    const send = () => {
      const headers = mirrors ? headerParamValues(this.toolHeaders.get(name) ?? [], args) : undefined;
      return this.request<CallToolResult>("tools/call", params, { ...options, headers });
    };
    return send().catch(async (error) => {
      if (!mirrors || !(error instanceof McpError) || error.code !== ErrorCode.HeaderMismatch) throw error;
      // The tool's schema may have changed under us: refresh and retry once (streamable-http client behaviour).
      await this.listTools();
      return send();
    });
  }

  listResources(options: ListOptions = {}): Promise<ListResourcesResult> {
    return this.listAll("resources/list", "resources", options);
  }

  listResourceTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    return this.listAll("resources/templates/list", "resourceTemplates", options);
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options);
  }

  listPrompts(options: ListOptions = {}): Promise<ListPromptsResult> {
    return this.listAll("prompts/list", "prompts", options);
  }

  getPrompt<N extends keyof Prompts & string>(name: N, ...[args, options]: PromptGetArgs<Prompts, N>) {
    return this.request<GetPromptResult>("prompts/get", { name, arguments: (args ?? {}) as JsonObject }, options);
  }

  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    return this.request("completion/complete", context ? { ref, argument, context } : { ref, argument });
  }

  /** 2025: the `ping` request. 2026 has no ping; `server/discover` serves as the liveness check. */
  async ping(options: CallOptions = {}): Promise<void> {
    await this.request(this.revision.pingMethod, {}, options);
  }

  /** 2025: `logging/setLevel`; 2026: sent as `_meta` logLevel on every later request. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await this.revision.announceLogLevel(level, (method, params) => this.request(method, params));
  }

  /** 2025-era resource subscription; 2026 servers use `listen({ resourceSubscriptions })` instead. */
  async subscribeResource(uri: string): Promise<void> {
    await this.request("resources/subscribe", { uri });
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.request("resources/unsubscribe", { uri });
  }

  /** 2026 `subscriptions/listen`: resolves once the server acknowledged; notifications go to `onMessage`. */
  listen(filter: SubscriptionFilter, onMessage: (message: JsonRpcNotification) => void): Promise<Subscription> {
    const id = `listen-${++this.listenCounter}`;
    const controller = new AbortController();
    const close = () => controller.abort();
    return new Promise((resolve, reject) => {
      let acknowledged = false;
      const onNotification = (message: JsonRpcNotification) => {
        // On stdio a server tears a subscription down with notifications/cancelled naming it.
        if (message.method === "notifications/cancelled" && message.params?.requestId === id) return close();
        const meta = message.params?._meta;
        if (!isObject(meta) || meta[MetaKey.subscriptionId] !== id) return;
        if (message.method !== "notifications/subscriptions/acknowledged") return onMessage(message);
        acknowledged = true;
        resolve({ acknowledged: message.params?.notifications as SubscriptionFilter, close, closed });
      };
      this.notificationListeners.add(onNotification);
      // subscriptions/listen exists only in 2026, so its `_meta` is always 2026's.
      const params = { notifications: filter, _meta: revision2026.requestMeta(this) };
      const closed = this.transport
        .request("subscriptions/listen", params, { id, signal: controller.signal, timeoutMs: 2 ** 31 - 1 })
        .then(
          () => undefined,
          (error) => (acknowledged ? undefined : reject(error)),
        )
        .finally(() => this.notificationListeners.delete(onNotification));
    });
  }

  /** Sends a notification to the server (rarely needed: cancellation is handled by `signal`). */
  notify(method: string, params?: JsonObject): Promise<void> {
    return this.transport.notify(method, params);
  }

  onNotification(listener: (message: JsonRpcNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private async listAll<T extends Result>(method: string, key: string, options: ListOptions): Promise<T> {
    if (options.cursor !== undefined) return this.request(method, { cursor: options.cursor }, options);
    const items: unknown[] = [];
    // "" is no cursor; a server that hands out the same cursor twice would otherwise keep us paging forever.
    const seen = new Set<unknown>([""]);
    let last: Result;
    let cursor: string | undefined;
    do {
      last = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      items.push(...((last[key] as unknown[] | undefined) ?? []));
      cursor = typeof last.nextCursor === "string" && !seen.has(last.nextCursor) ? last.nextCursor : undefined;
      seen.add(cursor);
    } while (cursor !== undefined);
    const { nextCursor: _done, ...rest } = last;
    return { ...rest, [key]: items } as T;
  }

  async answerInputs(requests: unknown): Promise<Record<string, InputResponse>> {
    if (!isObject(requests)) return {};
    const answer = async ([key, request]: [string, unknown]) => {
      const { method, params } = request as InputRequest;
      return [key, await answerServerRequest(this.options.handlers, method, params as JsonObject | undefined)];
    };
    return Object.fromEntries(await Promise.all(Object.entries(requests).map(answer)));
  }

  private dispatchNotification(message: JsonRpcNotification): void {
    // Header annotations may have changed with the tools; the next call re-reads them.
    if (message.method === "notifications/tools/list_changed") {
      this.toolHeaders.clear();
      this.toolOutput.forget();
    }
    if (message.method === "notifications/progress")
      this.progressListeners.get(String(message.params?.progressToken))?.(message.params as Progress);
    for (const listener of [...this.notificationListeners]) listener(message);
  }
}

/** Connects to a server over HTTP (`{ url }`) or stdio (`{ command }`), detecting the protocol era. */
export async function connect<Tools extends ToolTypes = AnyTools, Prompts extends PromptTypes = AnyPrompts>(
  target: ConnectTarget,
  options: ClientOptions = {},
): Promise<McpClient<Tools, Prompts>> {
  const timeoutMs = options.requestTimeoutMs;
  const transport = "url" in target ? createHttpTransport(target, timeoutMs) : spawnStdioTransport(target, timeoutMs);
  const client = new McpClient<Tools, Prompts>(transport, options);
  await client.start().catch(async (error) => {
    await transport.close();
    throw error;
  });
  return client;
}
