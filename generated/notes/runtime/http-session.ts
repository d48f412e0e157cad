// A 2025-era HTTP session: the protocol state plus what the transport needs to
// reach the client between requests (the optional GET stream) and to match the
// client's POSTed responses to our server-to-client requests.
import { randomUUID } from "node:crypto";
import { encodeMessage } from "./codec.ts";
import { JsonRpcPeer } from "./peer.ts";
import type { McpServer } from "./server.ts";
import { LegacySession } from "./server-session.ts";
import type { SseWriter } from "./sse.ts";
import { ResumableStream } from "./sse-replay.ts";
import type { JsonRpcMessage, RequestId } from "./types.ts";

const RESUMABLE_RETENTION_MS = 5 * 60_000;

export class HttpSession {
  readonly id = randomUUID();
  readonly state: LegacySession;
  readonly peer: JsonRpcPeer;
  readonly inFlight = new Map<RequestId, AbortController>();
  standaloneStream: SseWriter | undefined;
  readonly resumableStreams = new Map<string, ResumableStream>();
  private streamCounter = 0;
  private readonly stopChanges: () => void;

  constructor(server: McpServer) {
    this.state = new LegacySession(this.id, (message) => this.sendStandalone(message));
    // Server-to-client requests normally ride the originating POST's stream (chosen per request);
    // the GET stream is the fallback, and also carries our notifications/cancelled.
    this.peer = new JsonRpcPeer({ send: (message) => this.sendStandalone(message) });
    this.stopChanges = server.changes.subscribe((change) => this.state.deliverChange(change));
  }

  /** A resumable stream for one POST's SSE answer; forgotten a while after it is done. */
  openResumable(retryMs: number): ResumableStream {
    const id = `${this.id}.${++this.streamCounter}`;
    const forget = () => setTimeout(() => this.resumableStreams.delete(id), RESUMABLE_RETENTION_MS).unref();
    const stream = new ResumableStream(id, retryMs, forget);
    this.resumableStreams.set(id, stream);
    return stream;
  }

  touch(): void {
    this.state.lastActivity = Date.now();
  }

  close(): void {
    this.stopChanges();
    for (const controller of this.inFlight.values()) controller.abort(new Error("Session terminated"));
    this.inFlight.clear();
    this.peer.close(new Error("Session terminated"));
    this.standaloneStream?.close();
  }

  private sendStandalone(message: JsonRpcMessage): void {
    // Without an open GET stream there is no way to reach the client; the message is dropped (spec allows it).
    this.standaloneStream?.event(encodeMessage(message));
  }
}
