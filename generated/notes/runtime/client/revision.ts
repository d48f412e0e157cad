// What differs between the protocol revisions on the client side. Negotiation picks one module
// (revision-2025.ts after initialize, revision-2026.ts after server/discover) and the client and the
// HTTP transport ask it instead of testing the era; everything one revision does is in its module.
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, Result } from "../protocol/types.ts";

export type Era = "modern" | "legacy";

/** Who the client is, as the per-request metadata (2026) names it. */
export type ClientIdentity = {
  protocolVersion: string;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
};

export type ClientRevision = {
  readonly era: Era;
  /** The `_meta` every request carries on top of the caller's. */
  requestMeta(identity: ClientIdentity): JsonObject;
  /** The request that checks the server is alive. */
  readonly pingMethod: string;
  /** Tells the server a new log level, if the revision has a request for it. */
  announceLogLevel(level: LoggingLevel, send: (method: string, params: JsonObject) => Promise<unknown>): Promise<void>;
  /** Whether a failed request means the session is gone, so the client negotiates again and retries once. */
  sessionExpired(error: unknown, transportKind: "stdio" | "http"): boolean;
  /** Whether `tools/call` over HTTP mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers. */
  readonly mirrorsParamHeaders: boolean;
  /** A result as the client hands it on (results without `resultType` read as "complete"). */
  readResult(result: Result): Result;

  // Streamable HTTP.
  /** The HTTP headers of a request (`extra`: the caller's, e.g. `Mcp-Param-*`). */
  requestHeaders(
    method: string,
    params: JsonObject | undefined,
    extra?: Record<string, string>,
  ): Record<string, string>;
  /** The HTTP headers of a notification. */
  notificationHeaders(method: string): Record<string, string>;
  /** Whether the server keeps an HTTP session (`Mcp-Session-Id`): sent on every message, listened to with a
   *  standalone GET stream, ended with DELETE on close. */
  readonly httpSession: boolean;
  /** Whether a response stream that drops is resumed with GET + Last-Event-ID. */
  readonly resumableStreams: boolean;
  /** The `notifications/cancelled` params that cancel a request, or undefined when closing its stream does. */
  cancellation(requestId: string | number, reason: string): JsonObject | undefined;
};

/** The spec reads a result without `resultType` as "complete" (2025 results never carry one). */
export function completeByDefault(result: Result): Result {
  return result.resultType === undefined ? { ...result, resultType: "complete" } : result;
}
