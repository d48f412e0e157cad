// The `ctx` a handler receives; its revision obtains client inputs (a 2025 request or a 2026 MRTR round).
import { notification } from "../protocol/codec.ts";
import { ErrorCode, LOGGING_LEVELS } from "../protocol/constants.ts";
import { McpError, notFound } from "../protocol/errors.ts";
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  JsonRpcRequest,
  ListRootsResult,
  LoggingLevel,
  RequestId,
} from "../protocol/types.ts";
import type { AuthPrincipal } from "./auth-principal.ts";
import type { LazyAbort } from "./deadlines.ts";
import type { RequestScope } from "./scope.ts";
import type { Era, HandlerContext, RequestChannel } from "./types.ts";

type ContextInit = {
  request: JsonRpcRequest;
  meta: JsonObject;
  scope: RequestScope;
  channel: RequestChannel;
  abort: LazyAbort; // the run's cancellation; `ctx.signal` is its AbortSignal, made only if the handler reads it
  answers: Record<string, InputResponse>; // 2026 era: answers gathered from earlier MRTR rounds (verified)
};

let signalProperty: PropertyDescriptor;

/** `signal` is an own enumerable getter (shared by all contexts, so one hidden class): `{ ...ctx }` copies a
 * working signal, and a handler that never reads it costs no AbortController. An object literal with a getter
 * costs +44–56% server CPU per call (bench/RESULTS.md "Micro-optimisations"). The methods stay per-request
 * closures: handlers may call them detached (`const { progress } = ctx`). */
export class RequestContext implements HandlerContext {
  readonly #abort: LazyAbort;
  declare readonly signal: AbortSignal;
  declare requestId: RequestId;
  declare method: string;
  declare meta: JsonObject;
  declare era: Era;
  declare protocolVersion: string;
  declare sessionId: string | undefined;
  declare clientInfo: Implementation | undefined;
  declare auth?: AuthPrincipal;
  declare httpRequestId?: string;
  declare clientCapabilities: ClientCapabilities;
  declare progress: HandlerContext["progress"];
  declare log: HandlerContext["log"];
  declare elicit: HandlerContext["elicit"];
  declare sample: HandlerContext["sample"];
  declare listRoots: HandlerContext["listRoots"];
  declare requestInputs: HandlerContext["requestInputs"];

  /** On the prototype: the same function for every request, and no field to set per request. */
  notFound(uri: string, message?: string) {
    return notFound(uri, message);
  }

  static {
    signalProperty = {
      get(this: RequestContext) {
        return this.#abort.signal;
      },
      enumerable: true,
      configurable: true,
    };
  }

  constructor(init: ContextInit) {
    const { channel, meta, scope, abort } = init;
    this.#abort = abort;
    Object.defineProperty(this, "signal", signalProperty);
    this.requestId = init.request.id;
    this.method = init.request.method;
    this.meta = meta;
    this.era = scope.revision.era;
    this.protocolVersion = scope.protocolVersion;
    this.sessionId = scope.revision.sessionId(channel);
    this.clientInfo = scope.clientInfo;
    if (channel.auth) this.auth = channel.auth;
    if (channel.httpRequestId) this.httpRequestId = channel.httpRequestId;
    this.clientCapabilities = scope.clientCapabilities;

    const progressToken = meta.progressToken;
    let lastProgress = Number.NEGATIVE_INFINITY;
    let inputCounter = 0;
    const requestInputs = async (requests: Record<string, InputRequest>) => {
      for (const request of Object.values(requests)) requireCapability(scope.clientCapabilities, request);
      return await scope.revision.requestInputs(requests, init);
    };
    // Sequential single inputs get positional keys, stable as long as the handler is deterministic.
    const single = async (request: InputRequest) => {
      const key = `${request.method.split("/")[0]}-${inputCounter++}`;
      return (await requestInputs({ [key]: request }))[key];
    };
    this.progress = (progress, total, message) => {
      if (progressToken === undefined || abort.aborted || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: JsonObject = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      channel.notify(notification("notifications/progress", params));
    };
    this.log = (level, data, logger) => {
      if (abort.aborted || !shouldLog(level, scope.revision.logThreshold(meta, channel))) return;
      const params: JsonObject = { level, data };
      if (logger !== undefined) params.logger = logger;
      channel.notify(notification("notifications/message", params));
    };
    this.elicit = (params) => single({ method: "elicitation/create", params }) as Promise<ElicitResult>;
    this.sample = (params) => single({ method: "sampling/createMessage", params }) as Promise<CreateMessageResult>;
    this.listRoots = () => single({ method: "roots/list" }) as Promise<ListRootsResult>;
    this.requestInputs = requestInputs;
  }
}

function shouldLog(level: LoggingLevel, threshold: unknown): boolean {
  const thresholdIndex = LOGGING_LEVELS.indexOf(threshold as LoggingLevel);
  return thresholdIndex >= 0 && LOGGING_LEVELS.indexOf(level) >= thresholdIndex;
}

function requireCapability(capabilities: ClientCapabilities, request: InputRequest): void {
  const missing = (required: ClientCapabilities) =>
    new McpError(
      ErrorCode.MissingRequiredClientCapability,
      `The client did not declare the ${Object.keys(required)[0]} capability this request needs`,
      { requiredCapabilities: required },
    );
  if (request.method === "sampling/createMessage" && !capabilities.sampling) throw missing({ sampling: {} });
  if (request.method === "roots/list" && !capabilities.roots) throw missing({ roots: {} });
  if (request.method === "elicitation/create") {
    const elicitation = capabilities.elicitation;
    if (!elicitation) throw missing({ elicitation: {} });
    if (request.params.mode === "url" && !elicitation.url) throw missing({ elicitation: { url: {} } });
  }
}
