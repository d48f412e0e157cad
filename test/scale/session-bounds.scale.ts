// Issue 27 item 1 with --session-store: Redis keeps the same bounded copy of a session's initialize as
// memory does (it kept all 4 MiB of a clientInfo per session). A real redis-server and real HTTP.
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, test } from "vitest";
import { redisFeature } from "../../runtime/features/redis/feature.ts";
import { type HttpServerHandle, serveHttp } from "../../runtime/index.ts";
import { buildDemoServer } from "../runtime/fixtures/demo-server.ts";
import { rawPost } from "../runtime/helpers.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";

const BIG = "x".repeat(4 * 1024 * 1024 - 4_096);
let redis: RedisServer;
let handle: HttpServerHandle;

beforeAll(async () => {
  redis = await startRedis();
  handle = await serveHttp(buildDemoServer(), { sessionStore: redis.url, features: redisFeature.http });
});

afterAll(async () => {
  await handle?.close();
  await redis?.stop();
});

test("a session opened with a 4 MiB clientInfo takes a few KiB in Redis", async () => {
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: BIG, version: "1" } };
  const answer = await rawPost(handle.url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
  expect(answer.status).toBe(200);
  const id = answer.headers.get("mcp-session-id");
  const client = new Redis(redis.url);
  try {
    const stored = await client.hget(`mcp:demo:s:${id}`, "st");
    expect(stored).toBeTruthy();
    expect(stored?.length).toBeLessThan(16 * 1024);
    expect(JSON.parse(stored ?? "{}").clientInfo).toEqual({ name: "x".repeat(256), version: "1" });
  } finally {
    client.disconnect();
  }
});
