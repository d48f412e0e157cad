// The `redis` feature: --session-store redis://..., 2025-era sessions shared by every instance
// (redis-sessions.ts, ioredis).
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { redisFlags } from "./flags.ts";
import { openRedisSessions } from "./redis-sessions.ts";
import { parseStoreUrl } from "./session-store-url.ts";

export const redisFeature: Feature = {
  name: "redis",
  flags: redisFlags,
  configure,
  http: { openSessionStore: openRedisSessions },
};

function configure({ values, sources }: FeatureInput): FeatureSetup | string {
  const sessionStore = values["session-store"] as string | undefined;
  if (sessionStore === undefined) return {};
  const store = parseStoreUrl(sessionStore);
  if ("error" in store) return `${sources["session-store"]} ${store.error}`;
  return { http: { sessionStore } };
}
