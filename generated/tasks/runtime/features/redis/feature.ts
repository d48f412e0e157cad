// The `redis` feature: --session-store redis://..., 2025-era sessions shared by every instance
// (runtime/features/redis/redis-sessions.ts, ioredis).
import type { Feature } from "../../package/feature.ts";
import { openRedisSessions } from "./redis-sessions.ts";

export const redisFeature: Feature = { name: "redis", http: { openSessionStore: openRedisSessions } };
