// The Streamable HTTP transport, client side (global fetch): the transport object the client drives, a
// request's deadline and cancellation, and a 2025-era session's standalone GET stream.
import { setTimeout as wait } from "node:timers/promises";
import { revision2026 } from "../../client/revision.ts";
import {
  AUTH_NEEDS_OAUTH,
  type ClientTransport,
  TransportError,
  type TransportRequestOptions,
} from "../../client/transport.ts";
import { request } from "../../protocol/codec.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, timeoutError } from "../../protocol/peer.ts";
import type { JsonObject, RequestId, Result } from "../../protocol/types.ts";
import { DEFAULT_RETRY_MS, eventMessage, pump, readAnswer, routeIncoming } from "./client-answer.ts";
import { baseHeaders, getStream, type HttpConnection, type HttpTarget, notify, post } from "./client-connection.ts";
import { SseParser } from "./sse.ts";

export type { HttpTarget } from "./client-connection.ts";

export function createHttpTransport(target: HttpTarget, defaultTimeoutMs?: number): ClientTransport {
  const url = new URL(target.url);
  // `auth` is the oauth feature's option; arriving here, it was not turned into an authorizer.
  if ((target as { auth?: unknown }).auth !== undefined && !target.authorizer) throw new Error(AUTH_NEEDS_OAUTH);
  const connection: HttpConnection = {
    url,
    target,
    defaultTimeoutMs,
    revision: revision2026,
    nextId: 1,
    lifetime: new AbortController(),
    authorization: target.bearerToken ? `Bearer ${target.bearerToken}` : undefined,
  };
  return {
    kind: "http",
    setIncomingHandlers(next) {
      connection.handlers = next;
    },
    setProtocol(nextRevision, version) {
      connection.revision = nextRevision;
      connection.protocolVersion = version || undefined;
      listenIfSession(connection);
    },
    request: (method, params, options = {}) => sendRequest(connection, method, params, options),
    notify: (method, params) => notify(connection, method, params),
    close: () => close(connection),
  };
}

const TIMED_OUT = Symbol("timed out");

/** One request: its POST and answer, under its deadline, the caller's signal and the connection's life. */
async function sendRequest(
  connection: HttpConnection,
  method: string,
  params: JsonObject | undefined,
  options: TransportRequestOptions,
): Promise<Result> {
  if (connection.lifetime.signal.aborted) throw new TransportError("Client closed");
  const id = options.id ?? connection.nextId++;
  const headers = connection.revision.headers(method, params, options.headers);
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? connection.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  connection.lifetime.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await post(connection, request(id, method, params), headers, controller.signal);
    if (method === "initialize") connection.sessionId = response.headers.get("mcp-session-id") ?? undefined;
    return await readAnswer(connection, response, id, options, controller.signal);
  } catch (error) {
    if (controller.signal.reason === TIMED_OUT) {
      void announceCancel(connection, id, "timeout");
      throw timeoutError(method, timeoutMs);
    }
    if (controller.signal.aborted) {
      void announceCancel(connection, id, "cancelled by the caller");
      throw options.signal?.reason instanceof Error ? options.signal.reason : new Error("Request aborted");
    }
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    connection.lifetime.signal.removeEventListener("abort", onAbort);
  }
}

/** Tells the server, where the revision says so; otherwise closing the stream (done by aborting) cancels. */
async function announceCancel(connection: HttpConnection, id: RequestId, reason: string): Promise<void> {
  const params = connection.revision.cancellation(id, reason);
  if (!params || connection.lifetime.signal.aborted) return;
  await notify(connection, "notifications/cancelled", params).catch(() => {});
}

/** Ends every request and stream; a 2025-era session is ended on the server too (DELETE). */
async function close(connection: HttpConnection): Promise<void> {
  if (connection.lifetime.signal.aborted) return;
  connection.lifetime.abort();
  if (!connection.revision.httpSession || !connection.sessionId) return;
  await fetch(connection.url, { method: "DELETE", headers: { ...baseHeaders(connection) } })
    .then((response) => response.body?.cancel())
    .catch(() => {});
}

// The 2025 era's optional standalone GET stream, on which a session's server sends messages outside any
// request; it reconnects after the server's `retry` delay, from the last event seen. Opened once per session.
function listenIfSession(connection: HttpConnection): void {
  const { revision, protocolVersion, sessionId } = connection;
  if (!revision.httpSession || !protocolVersion || !sessionId || connection.listeningSession === sessionId) return;
  connection.listeningSession = sessionId;
  void listenStandalone(connection, sessionId);
}

async function listenStandalone(connection: HttpConnection, forSession: string): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  const { signal } = connection.lifetime;
  // A new session (after re-initialization) gets its own loop; this one then stops.
  while (!signal.aborted && connection.sessionId === forSession) {
    const response = await getStream(connection, lastEventId, signal);
    // 405: the server offers no such stream; 404: the session is gone.
    if (signal.aborted || (response && !response.ok)) return;
    if (response?.body) {
      const parser = new SseParser((event) => {
        const message = eventMessage(event.data);
        if (message) routeIncoming(connection, message, {});
      });
      await pump(response.body, parser, () => signal.aborted).catch(() => {});
      lastEventId = parser.lastEventId ?? lastEventId;
      retryMs = parser.retryMs ?? retryMs;
    }
    await wait(retryMs ?? DEFAULT_RETRY_MS, undefined, { signal }).catch(() => {});
  }
}
