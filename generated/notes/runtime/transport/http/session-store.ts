// The live 2025-era HTTP sessions, capped. Every session costs memory for as long as it lives (30 idle
// minutes by default), so a client looping on `initialize` could otherwise hold the server's memory
// hostage. When the cap is reached, the least recently used idle session (nothing in flight, no open
// stream) makes room; when every session is busy, new ones are refused (the transport answers 503).
import type { ServerResponse } from "node:http";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { RequestId } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import { sendJson } from "./responder.ts";
import { HttpSession } from "./session.ts";
import type { SseWriter } from "./sse.ts";

export const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Where 2025-era sessions live: this process's memory (SessionStore, the default) or a store shared by
 * every instance (RedisSessions, --session-store). A shared store answers asynchronously and may be
 * unreachable: its methods then reject with SessionStoreUnavailableError, which the transport answers
 * with 503 (the request did not run).
 */
export type Sessions = {
  readonly maxSessions: number;
  /** Sessions this process holds (all of them in memory mode). */
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
};

/** The shared store could not be reached: the request was not run; the client may retry. */
export class SessionStoreUnavailableError extends Error {}

/** The shared store could not be reached when the server started: it does not start (exit 1). */
export class SessionStoreStartError extends Error {}

/** 503 (the request did not run; a proxy may send it to another instance) with a JSON-RPC error. */
export function sendStoreUnavailable(res: ServerResponse, id: RequestId | undefined, error: Error): void {
  const message = `Session store unavailable: ${error.message}; retry shortly`;
  sendJson(res, 503, errorResponse(id, { code: ErrorCode.InternalError, message }), { "Retry-After": "1" });
}

export class SessionStore implements Sessions {
  // Map order is the recency order: a session is moved to the end whenever it is used, so the
  // first idle one found from the start is the least recently used.
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

  /** The session with this id, marked as just used; undefined if unknown (or evicted), or if it is bound to
   * another caller than `principal` (answered as unknown: 404, so a guessed id reveals nothing). */
  use(id: string, principal?: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.owner !== undefined && session.owner !== principal) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.touch();
    return session;
  }

  /** Holds a slot for a session being initialized, evicting the least recently used idle session if the
   * store is full. False when every slot is taken by a busy session. */
  reserve(_session?: HttpSession): boolean {
    if (this.sessions.size + this.reserved >= this.maxSessions) {
      const victim = this.leastRecentlyUsedIdle();
      if (!victim) return false;
      this.delete(victim.id);
    }
    this.reserved++;
    return true;
  }

  /** Turns a reservation into a live session (initialize succeeded). */
  add(session: HttpSession): void {
    this.release();
    this.sessions.set(session.id, session);
  }

  /** Gives a reservation back (initialize failed). */
  release(_session?: HttpSession): void {
    if (this.reserved > 0) this.reserved--;
  }

  /** Ends and forgets a session. */
  delete(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.close();
    return true;
  }

  /** Ends idle sessions whose last activity is before the cutoff. */
  sweep(cutoff: number): void {
    for (const session of [...this.sessions.values()]) {
      if (session.state.lastActivity < cutoff && session.inFlight.size === 0) this.delete(session.id);
    }
  }

  closeAll(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private leastRecentlyUsedIdle(): HttpSession | undefined {
    for (const session of this.sessions.values()) if (session.idle) return session;
    return undefined;
  }
}
