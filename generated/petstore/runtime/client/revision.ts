// What differs between the protocol revisions on the client side. Negotiation picks one object
// (revision2025 after initialize, revision2026 after server/discover); the client and the HTTP
// transport ask it instead of testing the era.
import { ownValue } from "../protocol/codec.ts";
import { MetaKey } from "../protocol/constants.ts";
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel } from "../protocol/types.ts";
import { encodeHeaderValue } from "../transport/http/header-encoding.ts";
import { NAMED_METHODS } from "../transport/http/post-common.ts";

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
  readonly pingMethod: string;
  announceLogLevel(level: LoggingLevel, send: (method: string, params: JsonObject) => Promise<unknown>): Promise<void>;
  /** Whether `tools/call` over HTTP mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers. */
  readonly mirrorsParamHeaders: boolean;
  /** The HTTP headers of a request or notification (`extra`: the caller's, e.g. `Mcp-Param-*`). */
  headers(method: string, params?: JsonObject, extra?: Record<string, string>): Record<string, string>;
  /** Whether the server keeps an HTTP session (`Mcp-Session-Id`; a 404 means it is gone): a standalone GET
   *  stream, response streams resumed with GET + Last-Event-ID when they drop, DELETE on close. */
  readonly httpSession: boolean;
  /** The `notifications/cancelled` params that cancel a request, or undefined when closing its stream does. */
  cancellation(requestId: string | number, reason: string): JsonObject | undefined;
};

// 2025-11-25, 2025-06-18, 2025-03-26: the session holds version, capabilities and log level, not each request.
export const revision2025: ClientRevision = {
  era: "legacy",
  requestMeta: () => ({}),
  pingMethod: "ping",
  announceLogLevel: (level, send) => send("logging/setLevel", { level }).then(() => {}),
  mirrorsParamHeaders: false,
  headers: () => ({}),
  httpSession: true,
  cancellation: (requestId, reason) => ({ requestId, reason }),
};

// 2026-07-28: every request names the version, the client, its capabilities and log level in `_meta`;
// over HTTP each message names its method in headers, there is no session, and closing a request's
// stream is its cancellation.
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
  announceLogLevel: async () => {}, // sent as `_meta` on every later request instead
  mirrorsParamHeaders: true,
  // `Mcp-Method` and, for named methods, `Mcp-Name` (2026-07-28 request metadata headers).
  headers(method, params, extra) {
    const headers: Record<string, string> = { "Mcp-Method": method };
    const field = ownValue(NAMED_METHODS, method);
    const value = field && params?.[field];
    if (typeof value === "string") headers["Mcp-Name"] = encodeHeaderValue(value);
    return { ...headers, ...extra };
  },
  httpSession: false,
  cancellation: () => undefined,
};
