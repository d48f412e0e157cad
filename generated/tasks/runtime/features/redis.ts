// The `redis` feature: --session-store redis://..., 2025-era sessions shared by every instance
// (runtime/transport/http/redis-sessions.ts, ioredis).
import type { Feature } from "../package/feature.ts";
import { openRedisSessions } from "../transport/http/redis-sessions.ts";

export const redisFeature: Feature = { name: "redis", http: { openSessionStore: openRedisSessions } };
