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
import { requestIdOf } from "./request-record.ts";
import { requestAuth } from "./security.ts";
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

// Media types as RFC 9110 writes them (§8.3.1 Content-Type, §12.5.1 Accept): `type/subtype` tokens,
// compared case-insensitively, then `; name=value` parameters (value a token or a quoted string).
// Matching by substring would take `text/plain; x=application/json` for JSON; this parses instead.

export type MediaType = { type: string; subtype: string; params: Map<string, string> };

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})[ \\t]*`);
const PARAMETER = new RegExp(`^;[ \\t]*(?:(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")[ \\t]*)?`);

/** Parses one media type (with optional parameters); undefined when it is not valid RFC 9110 syntax. */
export function parseMediaType(text: string): MediaType | undefined {
  const head = MEDIA_TYPE.exec(text.trim());
  if (!head) return undefined;
  const params = new Map<string, string>();
  let rest = text.trim().slice(head[0].length);
  while (rest !== "") {
    const param = PARAMETER.exec(rest);
    if (!param) return undefined;
    // An empty parameter (`;;`) is allowed by the grammar and means nothing.
    if (param[1] !== undefined) params.set(param[1].toLowerCase(), unquote(param[2]));
    rest = rest.slice(param[0].length);
  }
  return { type: head[1].toLowerCase(), subtype: head[2].toLowerCase(), params };
}

/** Whether a Content-Type value names exactly `essence` (e.g. "application/json"), whatever its parameters. */
export function isMediaType(value: string | undefined, essence: string): boolean {
  if (value === undefined) return false;
  const parsed = parseMediaType(value);
  return parsed !== undefined && `${parsed.type}/${parsed.subtype}` === essence;
}

/** Whether an Accept value lists `essence` itself (not only a wildcard) with a weight above zero. */
export function acceptsMediaType(accept: string | undefined, essence: string): boolean {
  if (accept === undefined) return false;
  for (const range of splitList(accept)) {
    const parsed = parseMediaType(range);
    if (!parsed || `${parsed.type}/${parsed.subtype}` !== essence) continue;
    const weight = parsed.params.get("q");
    if (weight === undefined || !/^0(?:\.0{0,3})?$/.test(weight)) return true;
  }
  return false;
}

/** Splits a comma-separated field value, leaving commas inside quoted strings alone. */
function splitList(value: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (quoted && char === "\\") {
      current += char + (value[i + 1] ?? "");
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === "," && !quoted) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
}
