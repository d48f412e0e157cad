// What differs between the protocol revisions on the client side. Negotiation picks one module
// (revision2025 after initialize, revision2026 after server/discover) and the client and the
// HTTP transport ask it instead of testing the era; everything one revision does is in its module.

import { isObject } from "../protocol/codec.ts";
import { MetaKey } from "../protocol/constants.ts";
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, Result } from "../protocol/types.ts";
import { encodeHeaderValue } from "../transport/http/header-encoding.ts";

export type Era = "modern" | "legacy";

/** Who the client is, as the per-request metadata (2026) names it. */
export type ClientIdentity = {
  protocolVersion: string;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  logLevel?: LoggingLevel;
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

// Protocol revision 2025 (2025-11-25, 2025-06-18, 2025-03-26), client side: everything the client does
// only with initialize-based servers. The session holds the version, capabilities and log level, so
// requests carry no per-request metadata; over HTTP the session is `Mcp-Session-Id` (a 404 means it
// is gone), its streams resume, and a cancelled request is announced with notifications/cancelled.

export const revision2025: ClientRevision = {
  era: "legacy",
  requestMeta: () => ({}),
  pingMethod: "ping",
  async announceLogLevel(level, send) {
    await send("logging/setLevel", { level });
  },
  sessionExpired(error, transportKind) {
    const status = (error as { status?: unknown } | undefined)?.status;
    return transportKind === "http" && status === 404;
  },
  mirrorsParamHeaders: false,
  readResult: completeByDefault,

  requestHeaders: () => ({}),
  notificationHeaders: () => ({}),
  httpSession: true,
  resumableStreams: true,
  cancellation: (requestId, reason) => ({ requestId, reason }),
};

// Protocol revision 2026-07-28, client side: everything the client does only with stateless servers.
// Every request names the version, the client and its capabilities (and the log level) in `_meta`;
// `server/discover` doubles as the liveness check; over HTTP each message names its method in headers
// (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), there is no session, and closing a request's stream is
// its cancellation (such streams are not resumable).

const NAMED_METHODS: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

export const revision2026: ClientRevision = {
  era: "modern",
  requestMeta({ protocolVersion, clientInfo, capabilities, logLevel }) {
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: protocolVersion,
      [MetaKey.clientInfo]: clientInfo,
      [MetaKey.clientCapabilities]: capabilities,
    };
    if (logLevel) meta[MetaKey.logLevel] = logLevel;
    return meta;
  },
  pingMethod: "server/discover",
  // No request: the level goes out as `_meta` on every later request (requestMeta).
  announceLogLevel: async () => {},
  sessionExpired: () => false,
  mirrorsParamHeaders: true,
  readResult: completeByDefault,

  requestHeaders: (method, params, extra) => ({ ...standardHeaders(method, params), ...extra }),
  notificationHeaders: (method) => ({ "Mcp-Method": method }),
  httpSession: false,
  resumableStreams: false,
  cancellation: () => undefined,
};

/** `Mcp-Method` and, for named methods, `Mcp-Name` (2026-07-28 request metadata headers). */
export function standardHeaders(method: string, params: JsonObject | undefined): Record<string, string> {
  const headers: Record<string, string> = { "Mcp-Method": method };
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  const value = field && isObject(params) ? params[field] : undefined;
  if (typeof value === "string") headers["Mcp-Name"] = encodeHeaderValue(value);
  return headers;
}
