// A 2025-era HTTP session: protocol state, the GET stream reaching the client, the peer for our requests.
import { randomUUID } from "node:crypto";
import { encodeMessage } from "../../protocol/codec.ts";
import { JsonRpcPeer } from "../../protocol/peer.ts";
import type { JsonRpcMessage, RequestId } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { LegacySession } from "../../server/session.ts";
import { ResumableStream, type SseWriter, type StreamMirror } from "./sse.ts";

const RESUMABLE_RETENTION_MS = 5 * 60_000;
/** Resumable streams kept per session (running or recently done); the oldest done one is forgotten first. */
const MAX_RESUMABLE_STREAMS = 16;

export class HttpSession {
  readonly id: string;
  readonly state: LegacySession;
  readonly peer: JsonRpcPeer;
  /** Requests running, by id: what a notifications/cancelled (or the session's end) aborts. */
  readonly inFlight = new Map<RequestId, { abort(reason?: unknown): void }>();
  /** The headers of every answer to this session's POSTs, made once (never modified). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  standaloneStream: SseWriter | undefined;
  owner: string | undefined; // the OAuth caller that opened the session (principalOf); only it may use the session id
  readonly resumableStreams = new Map<string, ResumableStream>();
  private streamCounter = 0;
  private readonly forgetTimers = new Set<NodeJS.Timeout>();
  private readonly stopChanges: () => void;
  /** Set when other processes share the session (--session-store). */
  readonly remote: SessionRemote | undefined;

  /** `id`: a session loaded from a shared store keeps its own. */
  constructor(server: McpServer, options: { id?: string; remote?: SessionRemote } = {}) {
    this.id = options.id ?? randomUUID();
    this.responseHeaders = { "Mcp-Session-Id": this.id };
    this.remote = options.remote;
    // With a shared store every process hears every change; the one holding the GET stream delivers it.
    this.state = new LegacySession(this.id, (message) => this.sendLocal(message));
    // Our requests ride their POST's stream when it has one (post-2025.ts); this GET stream is the fallback.
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
      }, RESUMABLE_RETENTION_MS).unref();
      this.forgetTimers.add(timer);
    };
    // Past the cap the oldest stream can no longer be resumed; a running one still reaches its connection.
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

  /** No request in flight and no stream open: it may be evicted to make room (session-store.ts). */
  get idle(): boolean {
    const streams = () => [...this.resumableStreams.values()].every((stream) => stream.done);
    return this.inFlight.size === 0 && (this.standaloneStream?.closed ?? true) && streams();
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

  sendLocal(message: JsonRpcMessage): boolean {
    if (!this.standaloneStream || this.standaloneStream.closed) return false;
    this.standaloneStream.event(encodeMessage(message));
    return true;
  }

  private sendStandalone(message: JsonRpcMessage): void {
    // Without an open GET stream the message is dropped (spec allows it), or goes to the process holding it.
    if (!this.sendLocal(message)) this.remote?.standalone(this.id, message);
  }
}

/** What a session needs from a shared store (--session-store, issue 18): its GET stream, our requests and
 * their answers, and its resumable streams' events may each live in another process. */
export type SessionRemote = {
  /** This process's id among those sharing the store: it prefixes our request and stream ids. */
  readonly instanceId: string;
  standalone(sessionId: string, message: JsonRpcMessage): void;
  /** The client's answer to a request another process sent. */
  response(sessionId: string, message: JsonRpcMessage): void;
  cancel(sessionId: string, requestId: RequestId): void;
  mirror(sessionId: string, streamId: string): StreamMirror;
};
