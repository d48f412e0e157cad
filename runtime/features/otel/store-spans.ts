// The task store's round trips (the redis feature's SharedStore, --task-store) in spans of their own under the
// request that makes them: a poll that is slow because Redis is shows as such. Keys and values are never recorded.
import type { Instrument, SharedStore } from "../../package/feature.ts";

export function tracedStore(store: SharedStore, instrument: Pick<Instrument, "span">): SharedStore {
  const span = <T>(operation: string, run: () => Promise<T>) =>
    instrument.span(`redis ${operation}`, { "db.system.name": "redis", "db.operation.name": operation }, run);
  return {
    get: (key) => span("get", () => store.get(key)),
    set: (key, value, ttlMs) => span("set", () => store.set(key, value, ttlMs)),
    add: (setKey, member, ttlMs) => span("add", () => store.add(setKey, member, ttlMs)),
    members: (setKey) => span("members", () => store.members(setKey)),
    ...(store.claim && {
      claim: (key, value, ttlMs) => span("claim", async () => (await store.claim?.(key, value, ttlMs)) ?? false),
    }),
  };
}
