// A 2025-era HTTP session: the protocol state plus what the transport needs to
// reach the client between requests (the optional GET stream) and to match the
// client's POSTed responses to our server-to-client requests.
import { randomUUID } from "node:crypto";
import { encodeMessage } from "../../protocol/codec.ts";
import { JsonRpcPeer } from "../../protocol/peer.ts";
import type { JsonRpcMessage, RequestId } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { LegacySession } from "../../server/session.ts";
import { ResumableStream, type SseWriter, type StreamMirror } from "./sse.ts";

const RESUMABLE_RETENTION_MS = 5 * 60_000;
/** Resumable streams kept per session (running or recently done); the oldest done one is forgotten first. */
export const MAX_RESUMABLE_STREAMS = 16;

export type HttpSessionOptions = {
  /** A session loaded from a shared store keeps the id it was given. */
  id?: string;
  /** Set when other processes share the session (--session-store). */
  remote?: SessionRemote;
};

export class HttpSession {
  readonly id: string;
  readonly state: LegacySession;
  readonly peer: JsonRpcPeer;
  readonly inFlight = new Map<RequestId, AbortController>();
  standaloneStream: SseWriter | undefined;
  /** The OAuth caller that opened the session (principalOf); only it may use the session id. */
  owner: string | undefined;
  readonly resumableStreams = new Map<string, ResumableStream>();
  private streamCounter = 0;
  private readonly forgetTimers = new Set<NodeJS.Timeout>();
  private readonly stopChanges: () => void;

  readonly remote: SessionRemote | undefined;

  constructor(server: McpServer, options: HttpSessionOptions = {}) {
    this.id = options.id ?? randomUUID();
    this.remote = options.remote;
    // Changes reach the client through the GET stream held here, if any: with a shared store every
    // process hears every change and the one holding the stream delivers it, so it goes out once.
    this.state = new LegacySession(this.id, (message) => this.sendLocal(message));
    // Server-to-client requests normally ride the originating POST's stream (chosen per request);
    // the GET stream is the fallback, and also carries our notifications/cancelled.
    this.peer = new JsonRpcPeer({
      send: (message) => this.sendStandalone(message),
      ...(this.remote ? { idPrefix: `${this.remote.instanceId}-` } : {}),
    });
    this.stopChanges = server.changes.subscribe((change) => this.state.deliverChange(change));
  }

  /** A resumable stream for one POST's SSE answer; forgotten a while after it is done. */
  openResumable(retryMs: number): ResumableStream {
    // Stream ids name the process too: two processes serving one session must not both make stream 1.
    const id = `${this.id}.${this.remote ? `${this.remote.instanceId}-` : ""}${++this.streamCounter}`;
    const forget = () => {
      const timer = setTimeout(() => {
        this.forgetTimers.delete(timer);
        this.resumableStreams.delete(id);
      }, RESUMABLE_RETENTION_MS);
      timer.unref();
      this.forgetTimers.add(timer);
    };
    // Bounds what one session keeps for resumption: past the cap, the oldest stream (done ones first)
    // can no longer be resumed. A running one still reaches its live connection.
    if (this.resumableStreams.size >= MAX_RESUMABLE_STREAMS) {
      const streams = [...this.resumableStreams.values()];
      const oldest = streams.find((stream) => stream.done) ?? streams[0];
      this.resumableStreams.delete(oldest.id);
    }
    const stream = new ResumableStream(id, retryMs, forget, this.remote?.mirror(this.id, id));
    this.resumableStreams.set(id, stream);
    return stream;
  }

  touch(): void {
    this.state.lastActivity = Date.now();
  }

  /** No request in flight and no stream open: the session may be evicted to make room for a new one. */
  get idle(): boolean {
    if (this.inFlight.size > 0) return false;
    if (this.standaloneStream && !this.standaloneStream.closed) return false;
    for (const stream of this.resumableStreams.values()) if (!stream.done) return false;
    return true;
  }

  close(): void {
    for (const timer of this.forgetTimers) clearTimeout(timer);
    this.forgetTimers.clear();
    this.resumableStreams.clear();
    this.stopChanges();
    for (const controller of this.inFlight.values()) controller.abort(new Error("Session terminated"));
    this.inFlight.clear();
    this.peer.close(new Error("Session terminated"));
    this.standaloneStream?.close();
  }

  /** Writes to the GET stream if this process holds it; true when it did. */
  sendLocal(message: JsonRpcMessage): boolean {
    if (!this.standaloneStream || this.standaloneStream.closed) return false;
    this.standaloneStream.event(encodeMessage(message));
    return true;
  }

  private sendStandalone(message: JsonRpcMessage): void {
    // Without an open GET stream there is no way to reach the client; the message is dropped (spec allows
    // it). With a shared store, the process holding the stream (if any) gets it.
    if (!this.sendLocal(message)) this.remote?.standalone(this.id, message);
  }
}

// What a 2025-era session needs from a shared session store (--session-store, issue 18) when other
// processes serve the same session: the client's GET stream, the requests we sent it and its answers,
// and the events of its resumable streams may each live in another process. Absent in memory mode.

export type SessionRemote = {
  /** This process's id among those sharing the store: it prefixes our request and stream ids. */
  readonly instanceId: string;
  /** A message for the client's GET stream, which another process may hold. */
  standalone(sessionId: string, message: JsonRpcMessage): void;
  /** The client's answer to a server-to-client request another process sent. */
  response(sessionId: string, message: JsonRpcMessage): void;
  /** notifications/cancelled for a request running in another process. */
  cancel(sessionId: string, requestId: RequestId): void;
  /** Copies a resumable stream's events where any process can replay them. */
  mirror(sessionId: string, streamId: string): StreamMirror;
};
