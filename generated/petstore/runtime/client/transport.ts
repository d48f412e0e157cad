// What the client needs from a transport. Both deliver messages that are not answers to our requests
// (notifications, 2025-era server-to-client requests) through the same incoming handlers.
import { ErrorCode } from "../protocol/constants.ts";
import { errorMessage, McpError } from "../protocol/errors.ts";
import type { RequestOptions } from "../protocol/peer.ts";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  ListRootsResult,
  Result,
} from "../protocol/types.ts";
import type { ClientRevision } from "./revision.ts";

export type TransportRequestOptions = Omit<RequestOptions, "send"> & {
  headers?: Record<string, string>; // extra HTTP headers (the `Mcp-Param-*` mirrors); ignored by stdio
  /** Notifications that belong to this request (HTTP response stream); stdio delivers them to onNotification. */
  onNotification?: (message: JsonRpcNotification) => void;
};

export type IncomingHandlers = {
  onRequest: (request: JsonRpcRequest, signal: AbortSignal) => Promise<Result>;
  onNotification: (message: JsonRpcNotification) => void;
};

export type ClientTransport = {
  readonly kind: "stdio" | "http";
  setIncomingHandlers(handlers: IncomingHandlers): void;
  /** Which revision/version subsequent requests speak (drives HTTP headers and sessions). */
  setProtocol(revision: ClientRevision, protocolVersion: string): void;
  request(method: string, params: JsonObject | undefined, options?: TransportRequestOptions): Promise<Result>;
  notify(method: string, params?: JsonObject): Promise<void>;
  close(): Promise<void>;
};

/** A failure below JSON-RPC: an HTTP status without a JSON-RPC error body, a dead process, a broken stream. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

/** The HTTP transport's login seam, asked around each POST to the MCP server's URL (and only that URL). The core
 *  sends only a static bearer token; OAuth (features/oauth/client/) is an authorizer, so the core carries no jose. */
export type Authorizer = {
  /** The Authorization header for the next request, or none yet. */
  authorization(): Promise<string | undefined>;
  /** After a 401, or a 403 `insufficient_scope`: true to send the request again (credentials renewed), false to give up. */
  challenge(response: Response): Promise<boolean>;
  /** A request got through (any other status): retry counters start over. */
  succeeded?(): void;
};

/** A failure to authorize: rejects the request or `connect()`, never read as a sign of an older server. */
export class AuthorizationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AuthorizationError";
  }
}

/** Anything an authorizer throws becomes an AuthorizationError (its own subclasses pass through unchanged). */
export async function asAuthorizationError<T>(work: Promise<T>): Promise<T> {
  return work.catch((error) => {
    if (error instanceof AuthorizationError) throw error;
    throw new AuthorizationError(`Authorization failed: ${errorMessage(error)}`, { cause: error });
  });
}

/** `connect({ url, auth })` in a package generated without the oauth feature (worded as a missing feature's flag). */
export const AUTH_NEEDS_OAUTH =
  "connect({ url, auth }) needs the 'oauth' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again";

/** The same user handlers answer real 2025-era server requests and 2026-era MRTR input requests. */
export type ClientHandlers = {
  elicitation?: (params: ElicitParams) => ElicitResult | Promise<ElicitResult>;
  sampling?: (params: CreateMessageParams) => CreateMessageResult | Promise<CreateMessageResult>;
  roots?: () => ListRootsResult | Promise<ListRootsResult>;
};

/** Capabilities that follow from the handlers supplied: we only claim what we can answer. */
export function capabilitiesFor(handlers: ClientHandlers | undefined): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers?.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (handlers?.sampling) capabilities.sampling = {};
  if (handlers?.roots) capabilities.roots = {};
  return capabilities;
}

export async function answerServerRequest(
  handlers: ClientHandlers | undefined,
  method: string,
  params: JsonObject | undefined,
): Promise<Result> {
  if (method === "ping") return {};
  if (method === "elicitation/create" && handlers?.elicitation) return handlers.elicitation(params as ElicitParams);
  if (method === "sampling/createMessage" && handlers?.sampling)
    return handlers.sampling(params as CreateMessageParams);
  if (method === "roots/list" && handlers?.roots) return handlers.roots();
  throw new McpError(ErrorCode.MethodNotFound, `Client does not handle ${method}`);
}
