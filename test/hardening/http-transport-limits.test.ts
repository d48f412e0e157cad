/**
 * Issue 11, items 8, 10, 12, 14, 15, 16: the HTTP transport's limits and parsing, attacked on a real socket.
 * Header-level cases go over raw `net` sockets, because Node's HTTP client would normalise them
 * (join or refuse repeated headers, fix up the request-target).
 */
import { connect as connectSocket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../runtime/index.ts";
import { MAX_SUBSCRIPTIONS } from "../../runtime/server/session.ts";
import { buildDemoServer, events } from "../runtime/fixtures/demo-server.ts";
import { callLine, startHttpProcess, startStdio } from "./wire.ts";

const SPEC_MAIN_SERVER = fileURLToPath(new URL("./fixtures/spec-main-server.ts", import.meta.url));

let open: HttpServerHandle;
beforeAll(async () => {
  open = await serveHttp(buildDemoServer());
});
afterAll(() => open?.close());

const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};

/** Sends exactly these bytes and returns everything the server answered, once it closes. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connectSocket(port, "127.0.0.1", () => socket.end(text));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("error", () => resolve(received));
    socket.on("close", () => resolve(received));
  });
}

/** A raw POST: header lines as given (repeats kept), Content-Length and Connection added. */
function rawRequest(
  port: number,
  body: string,
  lines: Array<[string, string]>,
  target = "/mcp",
): Promise<{ status: number; body: string }> {
  const head = [...lines, ["content-length", String(Buffer.byteLength(body))], ["connection", "close"]]
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n");
  return rawExchange(port, `POST ${target} HTTP/1.1\r\n${head}\r\n\r\n${body}`).then((answer) => {
    const split = answer.indexOf("\r\n\r\n");
    const headText = answer.slice(0, split);
    const rest = answer.slice(split + 4);
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
      body: /^transfer-encoding: chunked$/im.test(headText) ? unchunk(rest) : rest,
    };
  });
}

/** The payload of a chunked body (ASCII JSON here, so string lengths are byte lengths). */
function unchunk(text: string): string {
  let payload = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return payload;
    payload += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const headerLines = (headers: Record<string, string>): Array<[string, string]> => Object.entries(headers);
const echoBody = (id: unknown = 1) => callLine(id).trim();

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function initialize(url: string) {
  const answer = await post(
    url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    },
    { "content-type": "application/json", accept: "application/json, text/event-stream" },
  );
  return { ...answer, sessionId: answer.headers.get("mcp-session-id") ?? "" };
}

const legacyHeaders = (sessionId: string, accept = "application/json, text/event-stream") => ({
  "content-type": "application/json",
  accept,
  "mcp-session-id": sessionId,
  "mcp-protocol-version": "2025-11-25",
});

const legacyCall = (id: unknown, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("item 8: live sessions are capped", () => {
  it("the least recently used idle session makes room; with every session busy, initialize is 503", async () => {
    const capped = await serveHttp(buildDemoServer(), { maxSessions: 3 });
    try {
      const [a, b, c] = [await initialize(capped.url), await initialize(capped.url), await initialize(capped.url)];
      for (const session of [a, b, c]) expect(session.status).toBe(200);
      // Using `a` makes `b` the least recently used.
      expect((await post(capped.url, legacyCall(1, "echo", { text: "a" }), legacyHeaders(a.sessionId))).status).toBe(
        200,
      );
      const d = await initialize(capped.url);
      expect(d.status).toBe(200);
      expect((await post(capped.url, legacyCall(2, "echo", { text: "b" }), legacyHeaders(b.sessionId))).status).toBe(
        404,
      );
      for (const session of [a, c, d]) {
        const answer = await post(capped.url, legacyCall(3, "echo", { text: "x" }), legacyHeaders(session.sessionId));
        expect(answer.status, answer.text).toBe(200);
      }

      // Now keep a request in flight in each of the three: none is idle, so none may be evicted.
      const started = events.filter((event) => event === "started:wait_for_cancel").length;
      const running = [a, c, d].map((session) =>
        post(capped.url, legacyCall("w", "wait_for_cancel"), legacyHeaders(session.sessionId, "application/json")),
      );
      await waitFor(() => events.filter((event) => event === "started:wait_for_cancel").length >= started + 3);
      const refused = await initialize(capped.url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(JSON.parse(refused.text)).toMatchObject({
        id: 0,
        error: { code: -32603, message: expect.stringMatching(/Too many sessions/) },
      });

      // One finishes (cancelled): its session is idle again and gives way to a new one.
      const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "w" } };
      expect((await post(capped.url, cancel, legacyHeaders(a.sessionId))).status).toBe(202);
      await running[0];
      expect((await initialize(capped.url)).status).toBe(200);
      for (const session of [c, d]) await post(capped.url, cancel, legacyHeaders(session.sessionId));
      await Promise.all(running);
    } finally {
      await capped.close();
    }
  }, 30_000);

  it("one session holds at most MAX_SUBSCRIPTIONS resource subscriptions", async () => {
    const { sessionId } = await initialize(open.url);
    const subscribe = (id: number) =>
      post(
        open.url,
        { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri: `demo://users/${id}` } },
        legacyHeaders(sessionId),
      );
    for (let first = 0; first < MAX_SUBSCRIPTIONS; first += 100) {
      const batch = await Promise.all(Array.from({ length: 100 }, (_, i) => subscribe(first + i)));
      for (const answer of batch) expect(JSON.parse(answer.text)).toHaveProperty("result");
    }
    const over = JSON.parse((await subscribe(MAX_SUBSCRIPTIONS)).text);
    expect(over).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/Too many subscriptions/) } });
    // Subscribing again to one it holds is no new entry, so it still works.
    expect(JSON.parse((await subscribe(0)).text)).toHaveProperty("result");
  }, 60_000);

  it("one session keeps at most 16 resumable streams: the oldest can no longer be resumed", async () => {
    const { sessionId } = await initialize(open.url);
    const headers = legacyHeaders(sessionId);
    const streamIds: string[] = [];
    for (let i = 0; i < 17; i++) {
      const answer = await post(
        open.url,
        {
          ...legacyCall(i, "slow", { steps: 1 }),
          params: { name: "slow", arguments: { steps: 1 }, _meta: { progressToken: i } },
        },
        headers,
      );
      const first = /^id: (\S+)_0$/m.exec(answer.text);
      expect(first, answer.text).not.toBeNull();
      streamIds.push(first?.[1] ?? "");
    }
    const resume = (streamId: string) =>
      fetch(open.url, {
        headers: { ...headers, accept: "text/event-stream", "last-event-id": `${streamId}_0` },
      }).then(async (response) => {
        await response.text();
        return response.status;
      });
    expect(await resume(streamIds[0])).toBe(404);
    expect(await resume(streamIds[16])).toBe(200);
  }, 30_000);
});

describe("item 8: the generated server's --max-sessions flag and MCP_MAX_SESSIONS", () => {
  it.each([
    ["--max-sessions 2", {}, ["--max-sessions", "2"]],
    ["MCP_MAX_SESSIONS=2", { MCP_MAX_SESSIONS: "2" }, []],
  ])(
    "%s: a third session evicts the least recently used idle one",
    async (_label, env, args) => {
      const server = await startHttpProcess(SPEC_MAIN_SERVER, env, [], args);
      try {
        const first = await initialize(server.url);
        const second = await initialize(server.url);
        const third = await initialize(server.url);
        for (const session of [first, second, third]) expect(session.status).toBe(200);
        const ping = (sessionId: string) =>
          post(server.url, { jsonrpc: "2.0", id: 1, method: "ping" }, legacyHeaders(sessionId));
        expect((await ping(first.sessionId)).status).toBe(404);
        expect((await ping(second.sessionId)).status).toBe(200);
        expect((await ping(third.sessionId)).status).toBe(200);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it.each([
    ["--max-sessions 0", {}, ["--max-sessions", "0"], /exited with 2: [\s\S]*--max-sessions must be a whole number/],
    [
      "--max-sessions many",
      {},
      ["--max-sessions", "many"],
      /exited with 2: [\s\S]*--max-sessions must be a whole number/,
    ],
    [
      "MCP_MAX_SESSIONS=-1",
      { MCP_MAX_SESSIONS: "-1" },
      [],
      /exited with 2: [\s\S]*MCP_MAX_SESSIONS must be a whole number/,
    ],
  ])(
    "%s is a usage error (exit 2)",
    async (_label, env, args, message) => {
      await expect(startHttpProcess(SPEC_MAIN_SERVER, env, [], args)).rejects.toThrow(message);
    },
    60_000,
  );
});

describe("item 10: a request id in flight cannot be reused in the same HTTP session", () => {
  it("the duplicate is -32600 (400) and notifications/cancelled still reaches the first", async () => {
    const { sessionId } = await initialize(open.url);
    const headers = legacyHeaders(sessionId, "application/json");
    const cancelledBefore = events.filter((event) => event === "cancelled:wait_for_cancel").length;
    const startedBefore = events.filter((event) => event === "started:wait_for_cancel").length;
    const first = post(open.url, legacyCall(7, "wait_for_cancel"), headers);
    await waitFor(() => events.filter((event) => event === "started:wait_for_cancel").length > startedBefore);

    const duplicate = await post(open.url, legacyCall(7, "echo", { text: "second" }), headers);
    expect(duplicate.status).toBe(400);
    expect(JSON.parse(duplicate.text)).toMatchObject({
      id: 7,
      error: { code: -32600, message: expect.stringMatching(/already in use/) },
    });

    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } };
    expect((await post(open.url, cancel, headers)).status).toBe(202);
    expect((await first).status).toBe(204); // a cancelled 2025-era request gets no JSON-RPC response
    expect(events.filter((event) => event === "cancelled:wait_for_cancel").length).toBe(cancelledBefore + 1);
    // Once the first is over, the id is free again.
    const reused = await post(open.url, legacyCall(7, "echo", { text: "again" }), headers);
    expect(JSON.parse(reused.text)).toMatchObject({ id: 7, result: { content: [{ text: "again" }] } });
  });
});

describe("item 10 on stdio: the same rule, and cancellation still reaches the first", () => {
  it("the duplicate is -32600; notifications/cancelled then cancels the first", async () => {
    const server = startStdio();
    try {
      await server.write(callLine("dup", "wait_for_cancel", {}));
      await server.write(callLine("dup", "echo", { text: "second" }));
      const [refused] = await server.waitFor((all) => all.some((message) => message.id === "dup"));
      expect(refused).toMatchObject({ id: "dup", error: { code: -32600, message: expect.stringMatching(/in use/) } });
      await server.write(
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "dup" } })}\n`,
      );
      await server.write(callLine("events", "events", {}));
      const all = await server.waitFor((messages) => messages.some((message) => message.id === "events"));
      const seen = all.find((message) => message.id === "events")?.result?.content?.[0]?.text ?? "";
      expect(seen.split(",")).toContain("cancelled:wait_for_cancel");
      expect(all.filter((message) => message.id === "dup")).toHaveLength(1); // the cancelled one gets no answer
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe("item 12: a repeated Mcp-* header is refused, never joined", () => {
  const regionBody = (region: string) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "region_query", arguments: { region, query: "q" }, _meta: JSON.parse(callLine(1)).params._meta },
    });

  it("two Mcp-Param-Region lines that join to the body value are 400 with -32020", async () => {
    const lines: Array<[string, string]> = [
      ["host", "127.0.0.1"],
      ...headerLines({ ...MODERN_HEADERS, "mcp-name": "region_query" }),
      ["mcp-param-region", "ok"],
      ["mcp-param-region", "x"],
    ];
    const answer = await rawRequest(open.port, regionBody("ok, x"), lines);
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      id: 1,
      error: { code: -32020, message: expect.stringMatching(/mcp-param-region header sent more than once/) },
    });
    // The same request with one header line is served.
    const single = await rawRequest(open.port, regionBody("ok"), [
      ["host", "127.0.0.1"],
      ...headerLines({ ...MODERN_HEADERS, "mcp-name": "region_query" }),
      ["mcp-param-region", "ok"],
    ]);
    expect(single.status, single.body).toBe(200);
  });

  it("a repeated Mcp-Name (same value twice) is 400 with -32020", async () => {
    const answer = await rawRequest(open.port, echoBody(), [
      ["host", "127.0.0.1"],
      ...headerLines(MODERN_HEADERS),
      ["mcp-name", "echo"],
    ]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32020 } });
  });

  it("a repeated Mcp-Session-Id (2025 era) is 400, for POST and GET", async () => {
    const { sessionId } = await initialize(open.url);
    const lines: Array<[string, string]> = [
      ["host", "127.0.0.1"],
      ...headerLines(legacyHeaders(sessionId)),
      ["mcp-session-id", sessionId],
    ];
    const answer = await rawRequest(open.port, JSON.stringify(legacyCall(1, "echo", { text: "x" })), lines);
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32600 } });
    const get = await rawExchange(
      open.port,
      `GET /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\nmcp-session-id: ${sessionId}\r\nmcp-session-id: ${sessionId}\r\nconnection: close\r\n\r\n`,
    );
    expect(get).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe("item 14: Content-Type and Accept are parsed as media types", () => {
  it.each([
    ["text/plain; x=application/json", 415],
    ["application/jsonx", 415],
    ["application/json-seq", 415],
    ["text/application/json", 415],
    ["Application/JSON", 200],
    ["application/json; charset=UTF-8", 200],
    ['application/json; charset="utf-8"', 200],
  ])("Content-Type %s -> %i", async (contentType, status) => {
    const answer = await post(open.url, echoBody(), { ...MODERN_HEADERS, "content-type": contentType });
    expect(answer.status, answer.text).toBe(status);
  });

  it("two Content-Type lines are refused (Node would keep only the first)", async () => {
    const answer = await rawRequest(open.port, echoBody(), [
      ["host", "127.0.0.1"],
      ...headerLines(MODERN_HEADERS),
      ["content-type", "text/plain"],
    ]);
    expect(answer.status).toBe(415);
  });

  it.each([
    ["application/json, text/event-streamx", false],
    ["application/json, text/event-stream;q=0", false],
    ["application/json, x-text/event-stream", false],
    ["application/json, TEXT/Event-Stream", true],
    ["application/json, text/event-stream;q=0.5", true],
  ])("Accept %s: streams progress as SSE = %s", async (accept, streams) => {
    const body = JSON.stringify({
      ...JSON.parse(callLine(1, "slow", { steps: 2 })),
      params: {
        name: "slow",
        arguments: { steps: 2 },
        _meta: { ...JSON.parse(callLine(1)).params._meta, progressToken: "p" },
      },
    });
    const answer = await post(open.url, body, { ...MODERN_HEADERS, "mcp-name": "slow", accept });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe(streams ? "text/event-stream" : "application/json");
  });
});

describe("item 15: the Host header is parsed, and must be there once", () => {
  it.each([
    ["two Host lines", 400, ["127.0.0.1", "127.0.0.1"]],
    ["an IPv6 literal with a name glued on", 400, ["[::1]evil.example"]],
    ["an IPv6 literal with a name after the port", 400, ["[::1]:80evil.example"]],
    ["a port that is not a number", 400, ["127.0.0.1:abc"]],
    ["two ports", 400, ["localhost:80:81"]],
    ["a space inside", 400, ["local host"]],
    ["an unbracketed IPv6 address", 400, ["::1"]],
    ["a foreign name", 403, ["evil.example"]],
    ["an IPv6 loopback literal with a port", 200, ["[::1]:3000"]],
    ["a loopback name in capitals", 200, ["LOCALHOST:3000"]],
    ["127.0.0.1 without a port", 200, ["127.0.0.1"]],
  ])("%s -> %i", async (_label, status, hosts) => {
    const lines: Array<[string, string]> = [...hosts.map((host): [string, string] => ["host", host])];
    const answer = await rawRequest(open.port, echoBody(), [...lines, ...headerLines(MODERN_HEADERS)]);
    expect(answer.status, answer.body).toBe(status);
    if (status === 400) expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32600 } });
  });
});

describe("item 16: a malformed request-target is 400, not 500", () => {
  it.each(["http://[", "http://[::1/mcp", "//[/mcp"])("POST %s -> 400", async (target) => {
    const answer = await rawRequest(
      open.port,
      echoBody(),
      [["host", "127.0.0.1"], ...headerLines(MODERN_HEADERS)],
      target,
    );
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/request target/) },
    });
    expect(answer.body).not.toMatch(/TypeError/);
  });

  it("GET http://[ -> 400", async () => {
    const answer = await rawExchange(
      open.port,
      "GET http://[ HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
  });
});
