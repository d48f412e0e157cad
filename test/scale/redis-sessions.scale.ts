// The Redis session store (--session-store, issue 18) on its own: two servers in this process sharing a
// real redis-server stand for two instances behind a load balancer. Each test opens its session on one
// and carries on with it on the other. (scale-out.scale.ts runs real processes behind nginx.)
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { redisFeature } from "../../runtime/features/redis/feature.ts";
import { openRedisSessions } from "../../runtime/features/redis/redis-sessions.ts";
import { type HttpServerHandle, type McpServer, serveHttp } from "../../runtime/index.ts";
import { SessionStoreStartError } from "../../runtime/transport/http/session-store.ts";
import { type SseEvent, SseParser } from "../../runtime/transport/http/sse.ts";
import { buildDemoServer, events } from "../runtime/fixtures/demo-server.ts";
import { freePort } from "../support/free-port.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";

const LEGACY = "2025-11-25";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "t", version: "0" } },
};
const JSON_AND_SSE = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

let redis: RedisServer;
const running: HttpServerHandle[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.close()));
});
afterAll(async () => {
  await redis?.stop();
});

type Pair = { a: HttpServerHandle; b: HttpServerHandle; servers: McpServer[] };

async function pair(options: { maxSessions?: number; sessionIdleMs?: number } = {}): Promise<Pair> {
  const servers = [buildDemoServer(), buildDemoServer()];
  const [a, b] = await Promise.all(
    servers.map((server) => serveHttp(server, { ...options, sessionStore: redis.url, features: redisFeature.http })),
  );
  running.push(a, b);
  return { a, b, servers };
}

type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

async function post(url: string, body: object, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const messages: Message[] = sse
    ? parse(text)
        .filter((e) => e.data)
        .map((e) => JSON.parse(e.data))
    : text
      ? [JSON.parse(text)]
      : [];
  return { status: response.status, headers: response.headers, messages };
}

function parse(text: string): SseEvent[] {
  const found: SseEvent[] = [];
  new SseParser((event) => found.push(event)).feed(text);
  return found;
}

/** initialize + notifications/initialized on one server; the headers that name the session. */
async function session(url: string): Promise<Record<string, string>> {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "0" } },
  });
  expect(init.status, JSON.stringify(init.messages)).toBe(200);
  const headers = { "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "", "MCP-Protocol-Version": LEGACY };
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  return headers;
}

/** A GET stream whose messages are collected as they arrive. */
async function standalone(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { ...headers, Accept: "text/event-stream" },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const messages: Message[] = [];
  const parser = new SseParser((event) => event.data && messages.push(JSON.parse(event.data)));
  const reader = response.body?.getReader();
  void (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (!chunk || chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  })();
  return { messages, close: () => controller.abort() };
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const call = (id: number, name: string, args: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("a 2025-era session shared through Redis", () => {
  test("opened on one instance, it is used, configured and subscribed on the other", async () => {
    const { a, b, servers } = await pair();
    const headers = await session(a.url);
    const echo = await post(b.url, call(2, "echo", { text: "hi" }), headers);
    expect(echo.messages[0].result).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    expect(
      (await post(b.url, { jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "error" } }, headers))
        .status,
    ).toBe(200);
    // The level set on b applies on a: the slow tool's info logs are not sent, its progress is.
    const slow = await post(
      a.url,
      {
        ...call(4, "slow", { steps: 2 }),
        params: { name: "slow", arguments: { steps: 2 }, _meta: { progressToken: "p" } },
      },
      headers,
    );
    expect(slow.messages.filter((m) => m.method === "notifications/message")).toEqual([]);
    expect(slow.messages.filter((m) => m.method === "notifications/progress")).toHaveLength(2);
    // Subscribed on a, stream held by b, change raised on a's server: delivered once, by b.
    expect(
      (
        await post(
          a.url,
          { jsonrpc: "2.0", id: 5, method: "resources/subscribe", params: { uri: "demo://readme" } },
          headers,
        )
      ).status,
    ).toBe(200);
    const stream = await standalone(b.url, headers);
    await new Promise((resolve) => setTimeout(resolve, 100));
    servers[0].notifyResourceUpdated("demo://readme");
    await until(() => stream.messages.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.messages).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "demo://readme" } },
    ]);
    stream.close();
  });

  test("an elicitation sent by one instance reaches the GET stream on the other, and its answer comes back through either", async () => {
    const { a, b } = await pair();
    const headers = await session(a.url);
    const stream = await standalone(b.url, headers);
    // No SSE on this POST: the requests go out on the session's GET stream, held by b.
    const pending = post(a.url, call(9, "ask_name"), { ...headers, Accept: "application/json" });
    for (const [answer, count] of [
      [{ name: "Ada" }, 1],
      [{ colour: "red" }, 2],
    ] as const) {
      await until(() => stream.messages.filter((m) => m.method === "elicitation/create").length === count);
      const request = stream.messages.filter((m) => m.method === "elicitation/create")[count - 1];
      const reply = { jsonrpc: "2.0", id: request.id, result: { action: "accept", content: answer } };
      expect((await post(b.url, reply, headers)).status).toBe(202);
    }
    const result = await pending;
    expect(result.messages[0].result).toMatchObject({ content: [{ type: "text", text: "Ada likes red" }] });
    stream.close();
  });

  test("notifications/cancelled on one instance stops the request running on the other", async () => {
    const { a, b } = await pair();
    const headers = await session(a.url);
    events.length = 0;
    const pending = post(a.url, call(11, "wait_for_cancel"), headers);
    await until(() => events.includes("started:wait_for_cancel"));
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11 } };
    expect((await post(b.url, cancel, headers)).status).toBe(202);
    await until(() => events.includes("cancelled:wait_for_cancel"));
    await pending;
  });

  test("DELETE on one instance ends the session on the other", async () => {
    const { a, b } = await pair();
    const headers = await session(a.url);
    expect((await post(b.url, call(2, "echo", { text: "x" }), headers)).status).toBe(200);
    expect((await fetch(a.url, { method: "DELETE", headers })).status).toBe(200);
    expect((await post(b.url, call(3, "echo", { text: "x" }), headers)).status).toBe(404);
  });

  test("a stream cut on one instance is resumed on the other with exactly the missed events", async () => {
    const { a, b } = await pair();
    const headers = await session(a.url);
    const response = await fetch(a.url, {
      method: "POST",
      headers: { ...JSON_AND_SSE, ...headers },
      body: JSON.stringify({
        ...call(21, "slow", { steps: 6 }),
        params: { name: "slow", arguments: { steps: 6 }, _meta: { progressToken: 1 } },
      }),
    });
    const seen: SseEvent[] = [];
    const parser = new SseParser((event) => seen.push(event));
    const reader = response.body?.getReader();
    while (seen.filter((e) => e.data).length < 2) parser.feed(new TextDecoder().decode((await reader?.read())?.value));
    await reader?.cancel();
    const lastId = seen.filter((e) => e.data).at(-1)?.id ?? "";
    const resumed = await fetch(b.url, {
      headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": lastId },
    });
    expect(resumed.status).toBe(200);
    const rest = parse(await resumed.text()).filter((e) => e.data);
    const all = [...seen.filter((e) => e.data), ...rest].map((e) => JSON.parse(e.data) as Message);
    // 6 progress + 6 logs + the result, each once and in order.
    expect(all.filter((m) => m.method === "notifications/progress").map((m) => m.params?.progress)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(all.filter((m) => m.method === "notifications/message")).toHaveLength(6);
    expect(all.filter((m) => m.id === 21)).toHaveLength(1);
    expect(new Set(rest.map((e) => e.id)).size).toBe(rest.length);
  });

  test("the session cap counts every instance's sessions", async () => {
    await redis.restart(); // an empty store: only this test's sessions count
    const { a, b } = await pair({ maxSessions: 2 });
    await session(a.url);
    await session(b.url);
    const third = await post(a.url, INITIALIZE);
    expect(third.status).toBe(503);
    expect(third.messages[0].error?.message).toMatch(/Too many sessions/);
  });

  test("an idle session expires on every instance", async () => {
    const { a, b } = await pair({ sessionIdleMs: 400 });
    const headers = await session(a.url);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await post(b.url, call(2, "echo", { text: "x" }), headers)).status).toBe(404);
  });

  test("a session bound to one caller is unknown to another, on any instance", async () => {
    const store = await openRedisSessions(redis.url, buildDemoServer(), {
      maxSessions: 10,
      idleMs: 60_000,
      log: () => {},
    });
    const other = await openRedisSessions(redis.url, buildDemoServer(), {
      maxSessions: 10,
      idleMs: 60_000,
      log: () => {},
    });
    try {
      const created = store.create(buildDemoServer());
      created.owner = "https://issuer.example|alice";
      expect(await store.reserve(created)).toBe(true);
      await store.add(created);
      expect(await other.use(created.id, "https://issuer.example|mallory")).toBeUndefined();
      expect((await other.use(created.id, "https://issuer.example|alice"))?.id).toBe(created.id);
    } finally {
      await Promise.all([store.closeAll(), other.closeAll()]);
    }
  });
});

describe("when Redis is not there", () => {
  test("at start: a clear error naming the store (without its password), within seconds", async () => {
    const port = await freePort();
    const started = Date.now();
    const failure = await serveHttp(buildDemoServer(), {
      sessionStore: `redis://user:s3cret@127.0.0.1:${port}/0`,
      features: redisFeature.http,
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(SessionStoreStartError);
    expect(failure.message).toContain(`cannot reach the session store redis://user:***@127.0.0.1:${port}/0`);
    expect(failure.message).not.toContain("s3cret");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("while running: 2025-era requests fail fast with 503 and a JSON-RPC error, 2026-era ones go on, and service returns by itself", async () => {
    const lines: string[] = [];
    const server = buildDemoServer();
    const http = await serveHttp(server, {
      sessionStore: redis.url,
      features: redisFeature.http,
      log: (line) => lines.push(line),
    });
    running.push(http);
    const headers = await session(http.url);
    await redis.kill();
    const started = Date.now();
    const during = await post(http.url, call(2, "echo", { text: "x" }), headers);
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBe("1");
    expect(during.messages[0]).toMatchObject({
      id: 2,
      error: { message: expect.stringMatching(/^Session store unavailable: /) },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    const init = await post(http.url, INITIALIZE);
    expect(init.status).toBe(503);
    const modern = await post(
      http.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: {
          name: "echo",
          arguments: { text: "y" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo" },
    );
    expect(modern.status).toBe(200);
    expect(lines.some((line) => line.includes("unavailable"))).toBe(true);
    await redis.start();
    // The restarted Redis is empty: the old session is gone (404: the client initializes again), new ones work.
    await until(() => lines.some((line) => line.includes("reachable again")), 10_000);
    const fresh = await session(http.url);
    expect((await post(http.url, call(4, "echo", { text: "z" }), fresh)).status).toBe(200);
    expect((await post(http.url, call(5, "echo", { text: "z" }), headers)).status).toBe(404);
  });
});
