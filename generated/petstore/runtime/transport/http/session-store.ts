// The live 2025-era HTTP sessions, capped, or a client looping on `initialize` could hold the server's
// memory hostage: the least recently used idle session makes room; when all are busy, `initialize` gets 503.
import type { ServerResponse } from "node:http";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { JsonRpcRequest, RequestId } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { sendJson } from "./responder.ts";
import { HttpSession } from "./session.ts";
import type { SseWriter } from "./sse.ts";

export const DEFAULT_MAX_SESSIONS = 10_000;

/** 2025-era sessions in memory (SessionStore), or in a store shared by every instance (--session-store). */
export type Sessions = {
  readonly maxSessions: number;
  readonly size: number;
  create(server: McpServer): HttpSession;
  use(id: string, principal?: string): HttpSession | undefined | Promise<HttpSession | undefined>;
  reserve(session: HttpSession): boolean | Promise<boolean>;
  add(session: HttpSession): void | Promise<void>;
  release(session: HttpSession): void;
  delete(id: string): boolean | Promise<boolean>;
  /** Writes what a request changed in the session (log level, subscriptions) where others can read it. */
  save?(session: HttpSession): Promise<void>;
  /** Replays a resumable stream another process ran; false when it is not known. */
  resume?(session: HttpSession, streamId: string, afterSeq: number, open: () => SseWriter): Promise<boolean>;
  sweep(cutoff: number): void;
  closeAll(): void | Promise<void>;
  /** --otel's (a traced store): runs a request's handling, its session lookups included, in the request's span. */
  trace?(request: JsonRpcRequest, traceparent: string | undefined, run: () => Promise<void>): Promise<void>;
};

/** A shared store is unreachable: the request was not run; the client may retry. */
export class SessionStoreUnavailableError extends Error {}
/** At start: the server does not start (exit 1). */
export class SessionStoreStartError extends Error {}

/** 503 (the request did not run; a proxy may send it to another instance) with a JSON-RPC error. */
export function sendStoreUnavailable(res: ServerResponse, id: RequestId | undefined, error: Error): void {
  const message = `Session store unavailable: ${error.message}; retry shortly`;
  sendJson(res, 503, errorResponse(id, { code: ErrorCode.InternalError, message }), { "Retry-After": "1" });
}

export class SessionStore implements Sessions {
  // Map order is the recency order: a session moves to the end when used.
  private readonly sessions = new Map<string, HttpSession>();
  /** Slots promised to `initialize` requests still running (their sessions are not in the map yet). */
  private reserved = 0;

  constructor(readonly maxSessions = DEFAULT_MAX_SESSIONS) {
    if (!(Number.isSafeInteger(maxSessions) && maxSessions >= 1))
      throw new RangeError(`maxSessions must be a whole number of at least 1, not ${maxSessions}`);
  }

  get size(): number {
    return this.sessions.size;
  }

  create(server: McpServer): HttpSession {
    return new HttpSession(server);
  }

  /** Marked as just used; undefined if unknown or bound to another caller (so a guessed id reveals nothing). */
  use(id: string, principal?: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.owner !== undefined && session.owner !== principal) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.touch();
    return session;
  }

  /** Holds a slot for a session being initialized; false when every slot is taken by a busy session. */
  reserve(_session?: HttpSession): boolean {
    if (this.sessions.size + this.reserved >= this.maxSessions) {
      const victim = [...this.sessions.values()].find((session) => session.idle); // the least recently used idle one
      if (!victim) return false;
      this.delete(victim.id);
    }
    this.reserved++;
    return true;
  }

  add(session: HttpSession): void {
    this.release();
    this.sessions.set(session.id, session);
  }

  release(_session?: HttpSession): void {
    if (this.reserved > 0) this.reserved--;
  }

  delete(id: string): boolean {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    session?.close();
    return session !== undefined;
  }

  sweep(cutoff: number): void {
    for (const session of [...this.sessions.values()])
      if (session.state.lastActivity < cutoff && session.inFlight.size === 0) this.delete(session.id);
  }

  closeAll(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }
}
