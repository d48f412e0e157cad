// The `redis` feature: --session-store redis://..., 2025-era sessions shared by every instance
// (redis-sessions.ts, ioredis).
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { openRedisSessions } from "./redis-sessions.ts";
import { redisSharedStore } from "./redis-shared-store.ts";
import { parseStoreUrl } from "./session-store-url.ts";

export const redisFeature: Feature = {
  name: "redis",
  configure,
  http: { openSessionStore: openRedisSessions },
};

function configure({ values, sources, http }: FeatureInput): FeatureSetup | string {
  const sessionStore = values["session-store"] as string | undefined;
  const taskStore = (values["task-store"] as string | undefined) ?? (http ? sessionStore : undefined);
  for (const [flag, text] of [
    ["session-store", sessionStore],
    ["task-store", taskStore],
  ] as const) {
    const store = text === undefined ? undefined : parseStoreUrl(text);
    if (store && "error" in store) return `${sources[flag]} ${store.error}`;
  }
  return {
    ...(taskStore === undefined ? {} : { server: { sharedStore: redisSharedStore(taskStore) } }),
    ...(sessionStore === undefined ? {} : { http: { sessionStore } }),
  };
}
