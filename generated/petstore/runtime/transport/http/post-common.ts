// What both POST handlers (post-2025.ts, post-2026.ts) and the HTTP server share: the
// context a POST is handled in, and small readers of the request and error forms.
import type { IncomingMessage } from "node:http";
import { ErrorCode } from "../../protocol/constants.ts";
import { McpError } from "../../protocol/errors.ts";
import type { JsonObject } from "../../protocol/types.ts";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import type { McpServer } from "../../server/server.ts";
import { decodeHeaderValue } from "./header-encoding.ts";
import type { ProtectedResource } from "./http-features.ts";
import { acceptsMediaType } from "./media-type.ts";
import { requestAuth } from "./request-auth.ts";
import { requestIdOf } from "./request-record.ts";
import type { Sessions } from "./session-store.ts";

export type PostContext = {
  server: McpServer;
  sessions: Sessions;
  keepAliveMs: number;
  /** The SSE `retry` delay announced on resumable (2025-era) streams. */
  retryMs: number;
  /** Set when the server is an OAuth protected resource: its 403 insufficient_scope answer. */
  resource?: ProtectedResource;
};

/** The methods whose target travels in the Mcp-Name header (2026-07-28), and the param holding it. */
export const NAMED_METHODS: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/**
 * A 2025-era request may carry the routing headers too (they are harmless, and a proxy may route on them):
 * when present they must match the body, as in 2026-07-28, or a client could make a proxy treat a call as
 * one that is safe to resend (deploy/nginx.conf). Answered 400 before anything runs.
 */
export function routingHeaderMismatch(req: IncomingMessage, method: string, params: JsonObject): string | undefined {
  const sentMethod = header(req, "mcp-method");
  if (sentMethod !== undefined && sentMethod !== method)
    return `Mcp-Method header '${sentMethod}' does not match body method '${method}'`;
  const sentName = header(req, "mcp-name");
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  if (sentName === undefined) return undefined;
  const name = decodeHeaderValue(sentName);
  if (!field || name !== params[field]) return `Mcp-Name header '${sentName}' does not match the body`;
  return undefined;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

export function invalidRequest(message: string, data?: unknown) {
  return data === undefined
    ? { code: ErrorCode.InvalidRequest, message }
    : { code: ErrorCode.InvalidRequest, message, data };
}

export function acceptsSse(req: IncomingMessage): boolean {
  return acceptsMediaType(req.headers.accept, "text/event-stream");
}

/** The name of an `Mcp-*` header that arrived on more than one line, if any. */
export function repeatedMcpHeader(req: IncomingMessage): string | undefined {
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (name.startsWith("mcp-") && values !== undefined && values.length > 1) return name;
  }
  return undefined;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The channel's `auth` (ctx.auth) and `httpRequestId`, only when there are: a plain server's channel
 * stays as it was. */
export function authOf(req: IncomingMessage): { auth?: AuthPrincipal; httpRequestId?: string } {
  const auth = requestAuth(req);
  const id = requestIdOf(req);
  return auth ? { auth, ...id } : id;
}
