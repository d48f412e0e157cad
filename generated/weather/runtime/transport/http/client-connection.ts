// The Streamable HTTP client's state (one per connected client, built by client.ts) and its requests:
// the headers every one carries, a POST with the authorizer's retries, notifications, SSE GETs.
import type { ClientRevision } from "../../client/revision.ts";
import {
  type Authorizer,
  asAuthorizationError,
  type IncomingHandlers,
  TransportError,
} from "../../client/transport.ts";
import { encodeMessage, notification } from "../../protocol/codec.ts";
import type { JsonObject, JsonRpcMessage } from "../../protocol/types.ts";

export type HttpTarget = {
  url: string | URL;
  headers?: Record<string, string>;
  bearerToken?: string; // a static bearer token (a server started with MCP_HTTP_TOKEN)
  authorizer?: Authorizer; // logs in for a protected server (OAuth's: runtime/features/oauth/client/, made from `auth`)
};

export type HttpConnection = {
  url: URL;
  target: HttpTarget;
  defaultTimeoutMs?: number;
  handlers?: IncomingHandlers;
  revision: ClientRevision; // until negotiation says otherwise, requests are 2026 ones (the server/discover probe)
  protocolVersion?: string;
  /** The 2025-era session (from initialize's answer), and the one whose standalone GET stream is open. */
  sessionId?: string;
  listeningSession?: string;
  nextId: number;
  /** Aborted by close() (so also the "closed" flag): every request and stream of the connection ends. */
  lifetime: AbortController;
  authorization?: string; // the header the last POST carried; GET streams and DELETE reuse it
};

/** Sends of one request at most: the first try plus re-authorizations (401) and step-ups (403). */
const MAX_AUTH_ATTEMPTS = 6;

export function baseHeaders(connection: HttpConnection): Record<string, string> {
  const headers: Record<string, string> = { ...connection.target.headers };
  // Only ever sent to the MCP server's own URL (never to discovery or authorization endpoints).
  if (connection.authorization) headers.Authorization = connection.authorization;
  if (connection.protocolVersion) headers["MCP-Protocol-Version"] = connection.protocolVersion;
  if (connection.sessionId && connection.revision.httpSession) headers["Mcp-Session-Id"] = connection.sessionId;
  return headers;
}

/** A POST; with an authorizer, a 401/403 goes to it and the same message is sent again when it says so. */
export async function post(
  connection: HttpConnection,
  message: JsonRpcMessage,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  const body = encodeMessage(message);
  const { authorizer } = connection.target;
  if (!authorizer) return send(connection, body, headers, signal);
  for (let attempt = 1; ; attempt++) {
    connection.authorization = (await asAuthorizationError(authorizer.authorization())) ?? connection.authorization;
    const response = await send(connection, body, headers, signal);
    // Only a 401, or a 403 asking for more scopes (step-up), is the authorizer's; any other answer is the caller's.
    const stepUp = response.status === 403 && /insufficient_scope/.test(response.headers.get("www-authenticate") ?? "");
    if (response.status !== 401 && !stepUp) {
      authorizer.succeeded?.();
      return response;
    }
    if (attempt >= MAX_AUTH_ATTEMPTS || !(await asAuthorizationError(authorizer.challenge(response)))) {
      await response.body?.cancel().catch(() => {});
      throw new TransportError(
        response.status === 403
          ? "HTTP 403: the server refused the request even after re-authorizing for the scopes it asked for"
          : "HTTP 401: the server did not accept the tokens obtained by logging in",
        response.status,
      );
    }
  }
}

const POST_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

function send(connection: HttpConnection, body: string, headers: Record<string, string>, signal: AbortSignal) {
  const all = { ...baseHeaders(connection), ...headers, ...POST_HEADERS };
  return fetch(connection.url, { method: "POST", headers: all, body, signal });
}

/** A GET for an SSE stream, after `lastEventId`: undefined when it fails, the body of a refusal dropped. */
export async function getStream(connection: HttpConnection, lastEventId: string | undefined, signal: AbortSignal) {
  const headers: Record<string, string> = { ...baseHeaders(connection), Accept: "text/event-stream" };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  const response = await fetch(connection.url, { method: "GET", headers, signal }).catch(() => undefined);
  if (response && !response.ok) await response.body?.cancel().catch(() => {});
  return response;
}

export async function notify(connection: HttpConnection, method: string, params?: JsonObject): Promise<void> {
  const headers = connection.revision.headers(method);
  const response = await post(connection, notification(method, params), headers, connection.lifetime.signal);
  await response.body?.cancel().catch(() => {});
  if (response.status !== 202 && !response.ok)
    throw new TransportError(`Notification rejected: HTTP ${response.status}`, response.status);
}
