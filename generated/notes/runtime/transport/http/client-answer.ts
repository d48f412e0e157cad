// Reading the answer to one POST: a JSON body, or an SSE stream that may carry notifications and (2025)
// server requests first. 2025 streams that drop are resumed with GET + Last-Event-ID; 2026 ones fail.
import { setTimeout as wait } from "node:timers/promises";
import { TransportError, type TransportRequestOptions } from "../../client/transport.ts";
import { decodeMessage, errorResponse, isNotification, isRequest, resultResponse } from "../../protocol/codec.ts";
import { McpError, methodNotFound, toJsonRpcError } from "../../protocol/errors.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId, Result } from "../../protocol/types.ts";
import { getStream, type HttpConnection, post } from "./client-connection.ts";
import { SseParser } from "./sse.ts";

export const DEFAULT_RETRY_MS = 1_000;
const MAX_RESUME_ATTEMPTS = 5;

export async function readAnswer(
  connection: HttpConnection,
  response: Response,
  id: RequestId,
  options: TransportRequestOptions,
  signal: AbortSignal,
): Promise<Result> {
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body) {
    const message = eventMessage(await response.text());
    // The HTTP status goes along: a 404 for a 2025-era session means it is gone.
    if (message && "error" in message)
      throw Object.assign(McpError.fromJson(message.error), { status: response.status });
    if (message && "result" in message && message.id === id && response.ok) return message.result;
    throw new TransportError(`Unexpected HTTP ${response.status} response to request ${id}`, response.status);
  }
  let answer: Result | McpError | undefined;
  const parser = new SseParser((event) => {
    const message = eventMessage(event.data);
    if (message && !("method" in message) && message.id === id) {
      answer = "error" in message ? McpError.fromJson(message.error) : message.result;
    } else if (message) {
      routeIncoming(connection, message, options);
    }
  });
  for (let attempt = 0, stream: Response | undefined = response; ; attempt++) {
    if (stream?.body) await pump(stream.body, parser, () => answer !== undefined).catch(() => {});
    if (answer instanceof McpError) throw answer;
    if (answer !== undefined) return answer;
    if (signal.aborted) throw new Error("Request aborted");
    // The stream ended early. Only a session's (2025) streams with an event id can be resumed.
    if (!connection.revision.httpSession || parser.lastEventId === undefined || attempt >= MAX_RESUME_ATTEMPTS)
      throw new TransportError(`The response stream for request ${id} ended before the response`);
    await wait(parser.retryMs ?? DEFAULT_RETRY_MS, undefined, { signal });
    const resumed = await getStream(connection, parser.lastEventId, signal);
    stream = resumed?.ok ? resumed : undefined;
  }
}

/** The JSON-RPC message a body or SSE event carries; undefined for a priming event (only an id) or anything else. */
export function eventMessage(data: string): JsonRpcMessage | undefined {
  const decoded = decodeMessage(data);
  return decoded.ok ? decoded.message : undefined;
}

/** Handles a message that is not the awaited response: a notification or a 2025-era server request. */
export function routeIncoming(connection: HttpConnection, message: JsonRpcMessage, options: TransportRequestOptions) {
  if (isNotification(message)) {
    options.onNotification?.(message);
    connection.handlers?.onNotification(message);
  } else if (isRequest(message)) {
    void answerServerRequest(connection, message);
  }
}

async function answerServerRequest(connection: HttpConnection, message: JsonRpcRequest) {
  const { handlers, lifetime } = connection;
  let reply: JsonRpcMessage;
  try {
    if (!handlers) throw methodNotFound(message.method);
    reply = resultResponse(message.id, await handlers.onRequest(message, lifetime.signal));
  } catch (error) {
    reply = errorResponse(message.id, toJsonRpcError(error));
  }
  if (lifetime.signal.aborted) return;
  const response = await post(connection, reply, {}, lifetime.signal).catch(() => undefined);
  await response?.body?.cancel().catch(() => {});
}

/** Feeds `body` to `parser` until it ends or `done()` says the reader has what it waited for. */
export async function pump(body: ReadableStream<Uint8Array>, parser: SseParser, done: () => boolean): Promise<void> {
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
