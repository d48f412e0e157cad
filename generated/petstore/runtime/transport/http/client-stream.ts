// The 2025 era's standalone stream, client side: the optional GET stream on which a session's server sends
// messages outside any request. It reconnects after the server's `retry` delay, from the last event seen.
import { setTimeout as wait } from "node:timers/promises";
import { DEFAULT_RETRY_MS, dispatchIncoming, eventMessage, pump } from "./client-answer.ts";
import { baseHeaders, type HttpConnection } from "./client-connection.ts";
import { SseParser } from "./sse.ts";

/** Opens the session's stream once the revision has one and the session is new; a no-op otherwise. */
export function listenIfSession(connection: HttpConnection): void {
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
  while (!connection.closed && connection.sessionId === forSession) {
    const headers: Record<string, string> = { ...baseHeaders(connection), Accept: "text/event-stream" };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    const response = await fetch(connection.url, { method: "GET", headers, signal }).catch(() => undefined);
    if (connection.closed) return;
    if (response && !response.ok) {
      await response.body?.cancel().catch(() => {});
      return; // 405: the server offers no such stream; 404: the session is gone
    }
    if (response?.body) {
      const parser = new SseParser((event) => {
        const message = eventMessage(event.data);
        if (message) dispatchIncoming(connection, message, {});
      });
      await pump(response.body, parser, () => connection.closed).catch(() => {});
      lastEventId = parser.lastEventId ?? lastEventId;
      retryMs = parser.retryMs ?? retryMs;
    }
    await wait(retryMs ?? DEFAULT_RETRY_MS, undefined, { signal }).catch(() => {});
  }
}
