// The Streamable HTTP transport, client side (global fetch). Each request is
// its own POST; answers come back as JSON or as an SSE stream that may carry
// notifications and, in the 2025 era, server-to-client requests first. 2025-era
// streams that drop are resumed with GET + Last-Event-ID after the server's
// `retry` delay; 2026 streams are not resumable (a drop fails the request).

import { setTimeout as wait } from "node:timers/promises";
import { AUTH_NEEDS_OAUTH, type Authorizer, asAuthorizationError } from "../../client/authorizer.ts";
import type { ClientRevision } from "../../client/revision.ts";
import { revision2026 } from "../../client/revision-2026.ts";
import {
  type ClientTransport,
  type IncomingHandlers,
  TransportError,
  type TransportRequestOptions,
} from "../../client/transport.ts";
import {
  encodeMessage,
  errorResponse,
  isNotification,
  isRequest,
  request,
  resultResponse,
  validateMessage,
} from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import { McpError, toJsonRpcError } from "../../protocol/errors.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../../protocol/peer.ts";
import type { JsonRpcMessage, RequestId, Result } from "../../protocol/types.ts";
import { SseParser } from "./sse.ts";

export type HttpTarget = {
  url: string | URL;
  headers?: Record<string, string>;
  /** A static bearer token (a server started with MCP_HTTP_TOKEN). */
  bearerToken?: string;
  /**
   * Logs in for a protected server: headers per request, and a say on each 401 (or 403 insufficient_scope).
   * OAuth's is runtime/features/oauth/client/ (a generated client with the oauth feature turns `auth` into one).
   */
  authorizer?: Authorizer;
};

/** Sends of one request at most: the first try plus re-authorizations (401) and step-ups (403). */
const MAX_AUTH_ATTEMPTS = 6;

const DEFAULT_RETRY_MS = 1_000;
const MAX_RESUME_ATTEMPTS = 5;

/** A JSON-RPC error that came with an HTTP status (the era probe looks at both). */
export class HttpMcpError extends McpError {
  constructor(
    error: McpError,
    readonly status: number,
  ) {
    super(error.code, error.message, error.data);
  }
}

export function createHttpTransport(
  target: HttpTarget,
  defaultTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): ClientTransport {
  const url = new URL(target.url);
  let handlers: IncomingHandlers | undefined;
  // Until negotiation says otherwise, requests are 2026 ones (the server/discover probe).
  let revision: ClientRevision = revision2026;
  let protocolVersion: string | undefined;
  let sessionId: string | undefined;
  let nextId = 1;
  let closed = false;
  let listeningSession: string | undefined;
  const lifetime = new AbortController();
  // `auth` is the oauth feature's option; arriving here, it was not turned into an authorizer.
  if ((target as { auth?: unknown }).auth !== undefined && !target.authorizer) throw new Error(AUTH_NEEDS_OAUTH);
  const authorizer = target.authorizer;
  // The header the last POST carried; GET streams and DELETE reuse it.
  let authorization = target.bearerToken ? `Bearer ${target.bearerToken}` : undefined;

  const baseHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = { ...target.headers };
    // Only ever sent to the MCP server's own URL (never to discovery or authorization endpoints).
    if (authorization) headers.Authorization = authorization;
    if (protocolVersion) headers["MCP-Protocol-Version"] = protocolVersion;
    if (sessionId && revision.httpSession) headers["Mcp-Session-Id"] = sessionId;
    return headers;
  };

  const send = (body: string, headers: Record<string, string>, signal: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: {
        ...baseHeaders(),
        ...headers,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body,
      signal,
    });

  /** A POST; with an authorizer, a 401/403 goes to it and the same message is sent again when it says so. */
  const post = async (message: JsonRpcMessage, headers: Record<string, string>, signal: AbortSignal) => {
    const body = encodeMessage(message);
    if (!authorizer) return send(body, headers, signal);
    for (let attempt = 1; ; attempt++) {
      authorization = (await asAuthorizationError(authorizer.authorization())) ?? authorization;
      const response = await send(body, headers, signal);
      // Only a 401, or a 403 asking for more scopes (step-up), is the authorizer's; any other answer is the caller's.
      const stepUp =
        response.status === 403 && /insufficient_scope/.test(response.headers.get("www-authenticate") ?? "");
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
  };

  /** Handles a message that is not the awaited response: a notification or a 2025-era server request. */
  const dispatchIncoming = (message: JsonRpcMessage, options: TransportRequestOptions) => {
    if (isNotification(message)) {
      options.onNotification?.(message);
      handlers?.onNotification(message);
    } else if (isRequest(message)) {
      void answerServerRequest(message);
    }
  };

  const answerServerRequest = async (message: JsonRpcMessage & { id: RequestId; method: string }) => {
    let reply: JsonRpcMessage;
    try {
      if (!handlers) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
      reply = resultResponse(message.id, await handlers.onRequest(message, lifetime.signal));
    } catch (error) {
      reply = errorResponse(message.id, toJsonRpcError(error));
    }
    if (closed) return;
    const response = await post(reply, {}, lifetime.signal).catch(() => undefined);
    await response?.body?.cancel().catch(() => {});
  };

  const transport: ClientTransport = {
    kind: "http",
    setIncomingHandlers(next) {
      handlers = next;
    },
    setProtocol(nextRevision, version) {
      revision = nextRevision;
      protocolVersion = version || undefined;
      if (revision.httpSession && protocolVersion && sessionId && listeningSession !== sessionId) {
        listeningSession = sessionId;
        void listenStandalone(sessionId);
      }
    },
    async request(method, params, options = {}) {
      if (closed) throw new TransportError("Client closed");
      const id = options.id ?? nextId++;
      const message = request(id, method, params);
      const headers = revision.requestHeaders(method, params, options.headers);
      const controller = new AbortController();
      const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort();
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      lifetime.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const response = await post(message, headers, controller.signal);
        if (method === "initialize") sessionId = response.headers.get("mcp-session-id") ?? undefined;
        return await readAnswer(response, id, options, controller.signal);
      } catch (error) {
        if (timedOut) {
          void announceCancel(id, "timeout");
          throw new McpError(ErrorCode.RequestTimeout, `Request ${method} timed out after ${timeoutMs} ms`);
        }
        if (controller.signal.aborted) {
          void announceCancel(id, "cancelled by the caller");
          throw options.signal?.reason instanceof Error ? options.signal.reason : new Error("Request aborted");
        }
        throw error;
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        lifetime.signal.removeEventListener("abort", onAbort);
      }
    },
    async notify(method, params) {
      const headers = revision.notificationHeaders(method);
      const response = await post({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }, headers, lifetime.signal);
      await response.body?.cancel().catch(() => {});
      if (response.status !== 202 && !response.ok)
        throw new TransportError(`Notification rejected: HTTP ${response.status}`, response.status);
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      if (revision.httpSession && sessionId) {
        await fetch(url, { method: "DELETE", headers: { ...baseHeaders() } })
          .then((response) => response.body?.cancel())
          .catch(() => {});
      }
    },
  };

  /** Tells the server, where the revision says so; otherwise closing the stream (done by aborting) cancels. */
  const announceCancel = async (id: RequestId, reason: string) => {
    const params = revision.cancellation(id, reason);
    if (!params || closed) return;
    await transport.notify("notifications/cancelled", params).catch(() => {});
  };

  const readAnswer = async (
    response: Response,
    id: RequestId,
    options: TransportRequestOptions,
    signal: AbortSignal,
  ) => {
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.includes("text/event-stream") && response.body) {
      return readEventStream(response, id, options, signal);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const validated = parsed === undefined ? undefined : validateMessage(parsed);
    if (validated?.ok && "error" in validated.message) {
      throw new HttpMcpError(McpError.fromJson(validated.message.error), response.status);
    }
    if (validated?.ok && "result" in validated.message && validated.message.id === id && response.ok) {
      return validated.message.result;
    }
    throw new TransportError(`Unexpected HTTP ${response.status} response to request ${id}`, response.status);
  };

  const readEventStream = async (
    first: Response,
    id: RequestId,
    options: TransportRequestOptions,
    signal: AbortSignal,
  ): Promise<Result> => {
    let answer: Result | McpError | undefined;
    const parser = new SseParser((event) => {
      if (event.data.trim() === "") return; // priming event: only carries an id
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        return;
      }
      const validated = validateMessage(parsed);
      if (!validated.ok) return;
      const message = validated.message;
      if (!("method" in message) && message.id === id) {
        answer = "error" in message ? McpError.fromJson(message.error) : message.result;
      } else {
        dispatchIncoming(message, options);
      }
    });
    let response: Response | undefined = first;
    for (let attempt = 0; ; attempt++) {
      if (response?.body) await pump(response.body, parser, () => answer !== undefined).catch(() => {});
      if (answer instanceof McpError) throw answer;
      if (answer !== undefined) return answer;
      if (signal.aborted) throw new Error("Request aborted");
      // The stream ended early. Only resumable (2025) streams with an event id can be resumed.
      if (!revision.resumableStreams || parser.lastEventId === undefined || attempt >= MAX_RESUME_ATTEMPTS) {
        throw new TransportError(`The response stream for request ${id} ended before the response`);
      }
      await wait(parser.retryMs ?? DEFAULT_RETRY_MS, undefined, { signal });
      response = await fetch(url, {
        method: "GET",
        headers: { ...baseHeaders(), Accept: "text/event-stream", "Last-Event-ID": parser.lastEventId },
        signal,
      }).catch(() => undefined);
      if (response && !response.ok) {
        await response.body?.cancel().catch(() => {});
        response = undefined;
      }
    }
  };

  /** 2025 era: the optional GET stream for server messages outside any request; reconnects after `retry`. */
  const listenStandalone = async (forSession: string) => {
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    // A new session (after re-initialization) gets its own loop; this one then stops.
    while (!closed && sessionId === forSession) {
      const headers: Record<string, string> = { ...baseHeaders(), Accept: "text/event-stream" };
      if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
      const response = await fetch(url, { method: "GET", headers, signal: lifetime.signal }).catch(() => undefined);
      if (closed) return;
      if (response && !response.ok) {
        await response.body?.cancel().catch(() => {});
        return; // 405: the server offers no such stream; 404: the session is gone
      }
      if (response?.body) {
        const parser = new SseParser((event) => {
          if (event.data.trim() === "") return;
          try {
            const validated = validateMessage(JSON.parse(event.data));
            if (validated.ok) dispatchIncoming(validated.message, {});
          } catch {
            // not JSON: ignore the event
          }
        });
        await pump(response.body, parser, () => closed).catch(() => {});
        lastEventId = parser.lastEventId ?? lastEventId;
        retryMs = parser.retryMs ?? retryMs;
      }
      await wait(retryMs ?? DEFAULT_RETRY_MS, undefined, { signal: lifetime.signal }).catch(() => {});
    }
  };

  return transport;
}

async function pump(body: ReadableStream<Uint8Array>, parser: SseParser, done: () => boolean): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!done()) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
