// 2025-era sessions in Redis (--session-store, issue 18), so that any instance behind a load balancer
// serves any session. Redis holds each session's state (one JSON field, plus its owner) with the idle
// timeout as its TTL, a sorted set of sessions by last use for the cap, and each resumable SSE stream
// as a Redis stream. Every process keeps a "view" of the sessions it serves and hears, on one pub/sub
// channel per session, what it must act on: a message for the GET stream it holds, the client's answer
// to a request it sent, a cancellation of a request it runs, a stream event a resuming client waits
// for, the session's end. Server changes go over one channel to every process.
import { randomBytes } from "node:crypto";
import type { Redis, RedisOptions } from "ioredis";
import type { JsonRpcMessage, RequestId } from "../../protocol/types.ts";
import type { McpServer } from "../../server/server.ts";
import type { ServerChange } from "../../server/session.ts";
import { HttpSession, type SessionRemote } from "../../transport/http/session.ts";
import {
  SessionStoreStartError,
  SessionStoreUnavailableError,
  type Sessions,
} from "../../transport/http/session-store.ts";
import { MAX_KEPT_EVENTS, type SseWriter } from "../../transport/http/sse.ts";
import { RESERVE_SCRIPT, USE_SCRIPT } from "./redis-scripts.ts";
import { applySessionState, type SessionState, sessionState } from "./session-state.ts";
import { parseStoreUrl } from "./session-store-url.ts";

/** A session used within this long counts as busy (never evicted for the cap); a process refreshes the
 * sessions it is busy with every third of it, so a crashed process pins nothing for longer. */
const LEASE_MS = 60_000;
/** A finished stream stays replayable this long (as in memory: sse.ts). */
const DONE_STREAM_TTL_MS = 5 * 60_000;
/** Our session ids are UUIDs; anything else is unknown without asking Redis. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Options = { maxSessions: number; idleMs: number; log: (line: string) => void };
type Scripts = {
  mcpUse(hash: string, zset: string, id: string, now: number, idleMs: number): Promise<string[] | null>;
  mcpReserve(
    zset: string,
    id: string,
    now: number,
    idleMs: number,
    max: number,
    lease: number,
    prefix: string,
  ): Promise<number | string | null>;
};
type Bus =
  | { t: "standalone"; m: JsonRpcMessage }
  | { t: "response"; m: JsonRpcMessage }
  | { t: "cancel"; id: RequestId }
  | { t: "end" }
  | { t: "state" }
  | { t: "event"; s: string; q: number; d?: string };
type Follower = { last: number; writer?: SseWriter; waiting: Array<Extract<Bus, { t: "event" }>> };

/** Connects (both connections, within a few seconds) or rejects with SessionStoreStartError. */
export async function openRedisSessions(text: string, server: McpServer, options: Options): Promise<RedisSessions> {
  const target = parseStoreUrl(text);
  if ("error" in target) throw new SessionStoreStartError(`--session-store ${target.error}`);
  const { Redis: RedisClient } = await import("ioredis");
  let started = false;
  const base: RedisOptions = {
    lazyConnect: true,
    // Fail fast while Redis is away (503, the client retries) rather than queue requests behind it.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    connectTimeout: 3_000,
    // At start a missing Redis is an error to report; once running, reconnect forever, at most 1 s apart.
    retryStrategy: (times) => (started ? Math.min(times * 100, 1_000) : null),
  };
  const command = new RedisClient(text, base);
  // Subscriptions made while Redis is away wait for it (and ioredis subscribes again after a reconnect).
  const subscriber = new RedisClient(text, { ...base, enableOfflineQueue: true, commandTimeout: undefined });
  const quiet = () => {};
  command.on("error", quiet);
  subscriber.on("error", quiet);
  try {
    await Promise.all([command.connect(), subscriber.connect()]);
  } catch (error) {
    command.disconnect();
    subscriber.disconnect();
    throw new SessionStoreStartError(`cannot reach the session store ${target.display}: ${reasonOf(error)}`);
  }
  started = true;
  const store = new RedisSessions(command, subscriber, server, target.display, options);
  await store.start();
  return store;
}

export class RedisSessions implements Sessions, SessionRemote {
  readonly instanceId = randomBytes(4).toString("hex");
  readonly maxSessions: number;
  private readonly views = new Map<string, HttpSession>();
  /** The state last read from or written to Redis, per view: what a request changed is what differs. */
  private readonly stored = new WeakMap<HttpSession, string>();
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly prefix: string;
  private readonly changes: string;
  private relaying = false;
  private outage: { since: number; logged: number } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly stopChanges: () => void;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly server: McpServer,
    private readonly display: string,
    private readonly options: Options,
  ) {
    this.maxSessions = options.maxSessions;
    // Namespaced by server name: two different servers may share one Redis.
    this.prefix = `mcp:${server.options.name}:`;
    this.changes = `${this.prefix}changes`;
    this.timer = setInterval(() => this.refreshLeases(), LEASE_MS / 3);
    this.timer.unref();
    this.stopChanges = server.changes.subscribe((change) => {
      if (!this.relaying) this.publish(this.changes, change);
    });
    command.on("error", (error) => this.lost(error));
    command.on("ready", () => this.back());
    subscriber.on("message", (channel: string, text: string) => this.receive(channel, text));
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.changes);
    await this.shareSealingSecret();
    const scripts = this.command as unknown as { defineCommand(name: string, spec: object): void };
    scripts.defineCommand("mcpUse", { numberOfKeys: 2, lua: USE_SCRIPT });
    scripts.defineCommand("mcpReserve", { numberOfKeys: 1, lua: RESERVE_SCRIPT });
  }

  get size(): number {
    return this.views.size;
  }

  /**
   * Without a secret of its own (MCP_SEALING_SECRET), the server seals requestState and cursors with the
   * one kept in the store, made by the first instance to start: every instance sharing the store opens
   * what any of them sealed. It lives until deleted (deleting it and restarting every instance rotates it).
   */
  private async shareSealingSecret(): Promise<void> {
    if (this.server.options.secret !== undefined) return;
    const key = `${this.prefix}sealing-secret`;
    await this.command.set(key, randomBytes(32).toString("base64url"), "NX");
    const secret = await this.command.get(key);
    if (secret) this.server.sealer.rekey([Buffer.from(secret, "utf8")]);
  }

  create(server: McpServer): HttpSession {
    return new HttpSession(server, { remote: this });
  }

  async use(id: string, principal?: string): Promise<HttpSession | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    const fields = await this.run(() =>
      this.scripts.mcpUse(this.key(id), this.zset, id, Date.now(), this.options.idleMs),
    );
    if (!fields) {
      this.drop(id);
      return undefined;
    }
    let view = this.views.get(id);
    if (!view) {
      // Subscribed before the first request runs here, so that nothing meant for this process goes unheard;
      // a view is kept only once it is (a failed subscribe is tried again on the next request).
      await this.run(() => this.subscribe(this.channel(id)));
      view = this.views.get(id); // another request may have made it meanwhile
      if (!view) {
        view = new HttpSession(this.server, { id, remote: this });
        this.views.set(id, view);
      }
    }
    this.apply(view, fields);
    if (view.owner !== undefined && view.owner !== principal) return undefined;
    view.touch();
    return view;
  }

  async reserve(session: HttpSession): Promise<boolean> {
    const { idleMs, maxSessions } = this.options;
    const args = [this.zset, session.id, Date.now(), idleMs, maxSessions, LEASE_MS, `${this.prefix}s:`] as const;
    const outcome = await this.run(() => this.scripts.mcpReserve(...args));
    if (outcome === null) return false;
    if (typeof outcome === "string") this.end(outcome); // the least recently used idle session made room
    return true;
  }

  async add(session: HttpSession): Promise<void> {
    const state = sessionState(session.state);
    const key = this.key(session.id);
    this.views.set(session.id, session);
    this.stored.set(session, state);
    await this.run(async () => {
      await this.subscribe(this.channel(session.id));
      const multi = this.command.multi().hset(key, "st", state, "own", session.owner ?? "");
      await multi.pexpire(key, this.options.idleMs).zadd(this.zset, Date.now(), session.id).exec();
    });
  }

  release(session: HttpSession): void {
    this.views.delete(session.id);
    this.command.zrem(this.zset, session.id).catch(() => {});
  }

  async delete(id: string): Promise<boolean> {
    await this.run(() => this.command.multi().del(this.key(id)).zrem(this.zset, id).exec());
    this.end(id);
    return true;
  }

  async save(session: HttpSession): Promise<void> {
    const state = sessionState(session.state);
    if (state === this.stored.get(session)) return;
    this.stored.set(session, state);
    try {
      await this.command.hset(this.key(session.id), "st", state);
      this.publish(this.channel(session.id), { t: "state" });
    } catch (error) {
      // The request has run: its answer goes out; only the change (log level, subscription) is not shared.
      this.options.log(`session store: could not save session state: ${reasonOf(error)}`);
    }
  }

  async resume(session: HttpSession, streamId: string, afterSeq: number, open: () => SseWriter): Promise<boolean> {
    if (!streamId.startsWith(`${session.id}.`)) return false;
    const follower: Follower = { last: afterSeq, waiting: [] };
    const group = this.followers.get(streamId) ?? new Set<Follower>();
    this.followers.set(streamId, group);
    group.add(follower); // before reading, so that no event published meanwhile is missed
    const key = this.eventsKey(streamId);
    try {
      const entries = await this.run(() => this.command.xrange(key, `(0-${afterSeq + 1}`, "+"));
      if (entries.length === 0 && !(await this.run(() => this.command.exists(key)))) {
        this.unfollow(streamId, follower);
        return false;
      }
      follower.writer = open();
      for (const [id, fields] of entries) {
        const seq = Number(id.slice(2)) - 1;
        this.deliver(
          streamId,
          follower,
          fields[0] === "end" ? { t: "event", s: streamId, q: seq } : { t: "event", s: streamId, q: seq, d: fields[1] },
        );
      }
      for (const event of follower.waiting.splice(0)) this.deliver(streamId, follower, event);
      return true;
    } catch (error) {
      this.unfollow(streamId, follower);
      throw error;
    }
  }

  sweep(cutoff: number): void {
    // Redis expires sessions; a process only forgets views it has not used for as long.
    for (const view of [...this.views.values()]) if (view.state.lastActivity < cutoff && view.idle) this.drop(view.id);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    this.stopChanges();
    for (const id of [...this.views.keys()]) this.drop(id);
    this.command.disconnect();
    this.subscriber.disconnect();
  }

  // SessionRemote: what a view sends other processes.
  standalone(sessionId: string, message: JsonRpcMessage): void {
    this.publish(this.channel(sessionId), { t: "standalone", m: message });
  }

  response(sessionId: string, message: JsonRpcMessage): void {
    this.publish(this.channel(sessionId), { t: "response", m: message });
  }

  cancel(sessionId: string, requestId: RequestId): void {
    this.publish(this.channel(sessionId), { t: "cancel", id: requestId });
  }

  mirror(sessionId: string, streamId: string) {
    const key = this.eventsKey(streamId);
    const channel = this.channel(sessionId);
    const write = (seq: number, fields: string[], ttlMs: number, event: Bus | undefined) => {
      // Redis stream ids are <ms>-<n>: ours are 0-<seq + 1>, so a replay asks for everything after one.
      const pipeline = this.command.pipeline().xadd(key, "MAXLEN", "~", MAX_KEPT_EVENTS, `0-${seq + 1}`, ...fields);
      pipeline.pexpire(key, ttlMs);
      if (event) pipeline.publish(channel, `${this.instanceId}|${JSON.stringify(event)}`);
      pipeline.exec().catch((error) => this.lost(error));
    };
    return {
      // seq 0 only marks that the stream exists (its priming event has no data).
      push: (seq: number, data: string) =>
        write(
          seq,
          ["d", data],
          this.options.idleMs,
          seq === 0 ? undefined : { t: "event", s: streamId, q: seq, d: data },
        ),
      finish: (seq: number) => write(seq, ["end", "1"], DONE_STREAM_TTL_MS, { t: "event", s: streamId, q: seq }),
    };
  }

  private receive(channel: string, text: string): void {
    // Every message starts with its sender's instance id: our own are skipped unparsed.
    const bar = text.indexOf("|");
    if (text.slice(0, bar) === this.instanceId) return;
    if (channel === this.changes) {
      this.relay(JSON.parse(text.slice(bar + 1)) as ServerChange);
      return;
    }
    const view = this.views.get(channel.slice(this.prefix.length + 2));
    if (!view) return;
    const message = JSON.parse(text.slice(bar + 1)) as Bus;
    switch (message.t) {
      case "standalone":
        view.sendLocal(message.m);
        return;
      case "response":
        if ("id" in message.m && view.peer.awaits(message.m.id)) view.peer.receive(message.m);
        return;
      case "cancel": {
        const running = view.inFlight.get(message.id);
        running?.abort(new Error("Cancelled by the client"));
        view.inFlight.delete(message.id);
        return;
      }
      case "end":
        this.drop(view.id);
        return;
      case "state":
        void this.reload(view);
        return;
      case "event":
        for (const follower of this.followers.get(message.s) ?? []) this.deliver(message.s, follower, message);
    }
  }

  /** A change raised in another process, raised here too, so local sessions and streams hear it. */
  private relay(change: ServerChange): void {
    this.relaying = true;
    try {
      this.server.changes.emit(change);
    } finally {
      this.relaying = false;
    }
  }

  private deliver(streamId: string, follower: Follower, event: Extract<Bus, { t: "event" }>): void {
    if (!follower.writer) return void follower.waiting.push(event);
    if (event.q <= follower.last && event.d !== undefined) return; // replayed already
    if (event.d === undefined || follower.writer.closed) {
      follower.writer.close();
      this.unfollow(streamId, follower);
      return;
    }
    follower.writer.event(event.d, `${streamId}_${event.q}`);
    follower.last = event.q;
  }

  private unfollow(streamId: string, follower: Follower): void {
    const group = this.followers.get(streamId);
    group?.delete(follower);
    if (group?.size === 0) this.followers.delete(streamId);
  }

  private apply(view: HttpSession, fields: string[]): void {
    const record: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i]] = fields[i + 1];
    view.owner = record.own ? record.own : undefined;
    // Unchanged in Redis since this view last read or wrote it: keep the view, which may hold a change
    // a running request has not saved yet.
    if (record.st === undefined || record.st === this.stored.get(view)) return;
    this.stored.set(view, record.st);
    applySessionState(view.state, JSON.parse(record.st) as SessionState);
  }

  private async reload(view: HttpSession): Promise<void> {
    try {
      const fields = await this.command.hgetall(this.key(view.id));
      this.apply(view, Object.entries(fields).flat());
    } catch {
      // The next request on this view reads the state again.
    }
  }

  /** Ends a session here and tells every other process to end it too. */
  private end(id: string): void {
    this.publish(this.channel(id), { t: "end" });
    this.drop(id);
  }

  private drop(id: string): void {
    const view = this.views.get(id);
    if (!view) return;
    this.views.delete(id);
    view.close();
    this.subscriber.unsubscribe(this.channel(id)).catch(() => {});
  }

  /** SUBSCRIBE waits for Redis when it is away (its connection queues commands); a request must not. */
  private subscribe(channel: string): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer to SUBSCRIBE within 2 s")), 2_000);
    });
    return Promise.race([this.subscriber.subscribe(channel), late]).finally(() => clearTimeout(timer));
  }

  /** Keeps the sessions this process is busy with (requests, streams) alive and out of eviction's reach. */
  private refreshLeases(): void {
    const busy = [...this.views.values()].filter((view) => !view.idle);
    for (const [streamId, group] of this.followers)
      for (const follower of group) if (follower.writer?.closed) this.unfollow(streamId, follower);
    if (busy.length === 0) return;
    const pipeline = this.command.pipeline();
    for (const view of busy)
      pipeline.zadd(this.zset, Date.now(), view.id).pexpire(this.key(view.id), this.options.idleMs);
    pipeline.exec().catch((error) => this.lost(error));
  }

  private publish(channel: string, message: object): void {
    this.command.publish(channel, `${this.instanceId}|${JSON.stringify(message)}`).catch((error) => this.lost(error));
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.lost(error);
      throw new SessionStoreUnavailableError(`${this.display} ${reasonOf(error)}`);
    }
  }

  /** One line when Redis goes away, then at most one a minute until it is back. */
  private lost(error: unknown): void {
    const now = Date.now();
    if (this.outage && now - this.outage.logged < 60_000) return;
    this.outage = { since: this.outage?.since ?? now, logged: now };
    this.options.log(
      `session store ${this.display} unavailable: ${reasonOf(error)}; 2025-era requests get 503 until it is back`,
    );
  }

  private back(): void {
    if (!this.outage) return;
    const seconds = Math.round((Date.now() - this.outage.since) / 1000);
    this.outage = undefined;
    this.options.log(`session store ${this.display} reachable again after ${seconds} s`);
  }

  private get scripts(): Scripts {
    return this.command as unknown as Scripts;
  }

  private get zset(): string {
    return `${this.prefix}sessions`;
  }

  private key(id: string): string {
    return `${this.prefix}s:${id}`;
  }

  private channel(id: string): string {
    return `${this.prefix}c:${id}`;
  }

  private eventsKey(streamId: string): string {
    return `${this.prefix}e:${streamId}`;
  }
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\/\/[^@/\s]*@/g, "//***@");
}
