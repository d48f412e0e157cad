// Where tasks live: in this process by default, or in a store every instance shares (the redis feature's, with
// --session-store or --task-store), so a task made on one instance is read, polled and finished on another.
import { randomBytes } from "node:crypto";
import type { SharedStore } from "../../package/feature.ts";
import type { CallToolResult, InputRequest, InputResponse, JsonObject } from "../../protocol/types.ts";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** Where the upstream job is followed: the URL to poll, and what cancelling it sends (absolute URLs). */
export type JobState = {
  tool: string;
  pollUrl: string;
  cancel?: { method: string; url: string };
  resultUrl?: string;
  /** The call's `_fields`, applied to the result as to any answer (no other argument is kept). */
  fields?: unknown;
};

export type TaskRecord = {
  taskId: string;
  /** Who may read it: an OAuth subject, a 2025 session, or "" (no identity: the id's 128 random bits guard it). */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** When the upstream may be polled next (epoch ms): Retry-After or the interval, whichever instance polls. */
  nextPollAt: number;
  /** Polls so far that found the job still working (the backoff grows with them). */
  polls?: number;
  job?: JobState;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: JsonObject;
};

/** What a running handler task waits for: answers to `requests`, given in one or several parts (tasks/update). */
export type PendingInput = {
  requests: Record<string, InputRequest>;
  give(responses: Record<string, InputResponse>): void;
};

export type TaskStore = {
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Writes the record unless the stored one is already terminal (a terminal task never changes again). */
  put(record: TaskRecord): Promise<TaskRecord>;
  list(owner: string): Promise<TaskRecord[]>;
};

const EXPIRED_KEPT_MS = 60_000;

export const newTaskId = () => randomBytes(16).toString("base64url");

/** A task store over a shared key-value store: a record per task, and a set of task ids per owner. */
export function taskStoreOver(shared: SharedStore, prefix = "mcp:task:"): TaskStore {
  const key = (taskId: string) => `${prefix}${taskId}`;
  const ownerKey = (owner: string) => `${prefix}owner:${owner}`;
  const get = async (taskId: string) => {
    const text = await shared.get(key(taskId));
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  };
  return {
    get,
    async put(record) {
      const stored = await get(record.taskId);
      if (stored && TERMINAL.has(stored.status)) return stored;
      // Kept a minute past its TTL, so a reader sees why it ended (given up: failed) before it is gone.
      const left = Date.parse(record.createdAt) + record.ttlMs + EXPIRED_KEPT_MS - Date.now();
      await shared.set(key(record.taskId), JSON.stringify(record), Math.max(1, left));
      if (!stored) await shared.add(ownerKey(record.owner), record.taskId, record.ttlMs + EXPIRED_KEPT_MS);
      return record;
    },
    async list(owner) {
      const ids = await shared.members(ownerKey(owner));
      const records = await Promise.all(ids.map(get));
      return records.filter((record): record is TaskRecord => record !== undefined && record.owner === owner);
    },
  };
}

/** This process's store: values expire on read (and are swept once a minute, so memory stays bounded). */
export function memoryStore(): SharedStore {
  const values = new Map<string, { value: string; until: number }>();
  const sets = new Map<string, { members: Set<string>; until: number }>();
  const live = <T extends { until: number }>(map: Map<string, T>, key: string) => {
    const entry = map.get(key);
    if (entry && entry.until <= Date.now()) map.delete(key);
    return entry && entry.until > Date.now() ? entry : undefined;
  };
  const sweep = setInterval(() => {
    for (const map of [values, sets] as Map<string, { until: number }>[]) for (const key of map.keys()) live(map, key);
  }, 60_000);
  sweep.unref();
  return {
    get: async (key) => live(values, key)?.value,
    set: async (key, value, ttlMs) => {
      values.set(key, { value, until: Date.now() + ttlMs });
    },
    add: async (key, member, ttlMs) => {
      const set = live(sets, key) ?? { members: new Set<string>(), until: 0 };
      set.members.add(member);
      set.until = Math.max(set.until, Date.now() + ttlMs);
      sets.set(key, set);
    },
    members: async (key) => [...(live(sets, key)?.members ?? [])],
  };
}
