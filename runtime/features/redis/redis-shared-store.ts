// The store every instance shares for records such as MCP tasks (--task-store, else --session-store): a Redis
// key per value with its TTL, and Redis sets. Connects on first use; commands wait for Redis while it is away.
import type { SharedStore } from "../../package/feature.ts";

export function redisSharedStore(url: string): SharedStore {
  let client: Promise<import("ioredis").Redis> | undefined;
  const redis = () => {
    client ??= import("ioredis").then(({ Redis }) => {
      const made = new Redis(url, { maxRetriesPerRequest: 3, commandTimeout: 5_000 });
      made.on("error", () => {}); // each command reports its own failure
      return made;
    });
    return client;
  };
  return {
    get: async (key) => (await (await redis()).get(key)) ?? undefined,
    set: async (key, value, ttlMs) => {
      await (await redis()).set(key, value, "PX", Math.max(1, Math.ceil(ttlMs)));
    },
    add: async (key, member, ttlMs) => {
      const made = await redis();
      // The set lives as long as its longest-lived member: PEXPIRE GT only ever extends it.
      await made
        .multi()
        .sadd(key, member)
        .pexpire(key, Math.max(1, Math.ceil(ttlMs)), "GT")
        .pexpire(key, Math.max(1, Math.ceil(ttlMs)), "NX")
        .exec();
    },
    members: async (key) => (await redis()).smembers(key),
    claim: async (key, value, ttlMs) =>
      (await (await redis()).set(key, value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX")) === "OK",
  };
}
