// Types of one request's way through the server (RequestScope, MethodCall, ServerCore, Revision): types only,
// so the server, its methods, its features and the handler context depend on this file, not on each other.
import type {
  ClientCapabilities,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  JsonRpcRequest,
  Result,
  ServerCapabilities,
  Validator,
} from "../protocol/types.ts";
import type { UriTemplateMatcher } from "../protocol/uri-template-match.ts";
import type { LazyAbort } from "./deadlines.ts";
import type { MrtrBinding } from "./mrtr.ts";
import type { TokenSealer } from "./sealed-token.ts";
import type { ChangeHub } from "./session.ts";
import type {
  Era,
  HandlerContext,
  PromptDefinition,
  RequestChannel,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerOptions,
  ToolDefinition,
} from "./types.ts";

export type RegisteredTemplate = { definition: ResourceTemplateDefinition; matcher: UriTemplateMatcher };

/** What the methods of a request read of the server: its registry, options and shared machinery. */
export type ServerCore = {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly sealer: TokenSealer;
  readonly changes: ChangeHub;
  readonly tools: Map<string, ToolDefinition>;
  readonly resources: Map<string, ResourceDefinition>;
  readonly templates: Map<string, RegisteredTemplate>;
  readonly prompts: Map<string, PromptDefinition>;
  capabilities(): ServerCapabilities;
  validatorFor(schema: object | undefined, precompiled: Validator | undefined): Validator | undefined;
  onClose(listener: () => unknown): () => void;
};

export type RequestScope = {
  revision: Revision;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
};

export type MethodCall = {
  server: ServerCore;
  params: JsonObject;
  scope: RequestScope;
  channel: RequestChannel;
  ctx: HandlerContext;
  abort: LazyAbort; // the run's cancellation: `abort.aborted` without making `ctx.signal`
  binding: MrtrBinding;
  answers: Record<string, InputResponse>;
};

export type MethodSpec = {
  mrtr?: boolean; // may answer with an MRTR `input_required` result (2026 revision)
  unbounded?: boolean; // runs until cancelled, so no handler deadline applies
  run: (call: MethodCall) => Promise<Result>;
};

/** What a handler's input request needs of its request: the channel, the run's cancellation, earlier answers. */
export type InputCall = { channel: RequestChannel; abort: LazyAbort; answers: Record<string, InputResponse> };

/** Everything the server does differently per protocol revision. */
export type Revision = {
  readonly era: Era;
  /** Every method a server answers in this revision; any other is -32601. */
  readonly methods: Readonly<Record<string, MethodSpec>>;
  /** Who calls, with which version: from the request's `_meta` or from the session. Throws when malformed. */
  scope(request: JsonRpcRequest, meta: JsonObject, channel: RequestChannel): RequestScope;
  /** Answers from earlier input rounds that a request carries (verified). */
  answers(sealer: TokenSealer, binding: MrtrBinding): Record<string, InputResponse>;
  /** Obtains inputs from the client for a handler (capabilities already checked). */
  requestInputs(requests: Record<string, InputRequest>, call: InputCall): Promise<Record<string, InputResponse>>;
  /** The least severe level a handler's log messages go out at (not a level: none go out). */
  logThreshold(meta: JsonObject, channel: RequestChannel): unknown;
  /** The session id a handler sees, if this revision has sessions. */
  sessionId(channel: RequestChannel): string | undefined;
  /** A method's result as this revision puts it on the wire. */
  shapeResult(result: Result, method: string, server: ServerCore): Result;
};
