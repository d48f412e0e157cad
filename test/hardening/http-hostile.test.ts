/**
 * Hostile HTTP clients against serveHttp on a real socket: forged Origin/Host, broken MCP headers,
 * bad bearer tokens, slow-loris connections, and 1,000 clients at once. After each, a normal client is
 * still served. (The basic cases live in test/runtime/transport/http/http-security.test.ts; these are the variants.)
 */
import { Agent } from "node:http";
import { connect as connectSocket, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../runtime/index.ts";
import { buildDemoServer } from "../runtime/fixtures/demo-server.ts";
import { callLine, rawPost } from "./wire.ts";

const TOKEN = "s3cret-token-value";
let open: HttpServerHandle;
let guarded: HttpServerHandle;

beforeAll(async () => {
  open = await serveHttp(buildDemoServer(), { headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
  guarded = await serveHttp(buildDemoServer(), { bearerToken: TOKEN });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
});

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

const post = (url: string, body: string, headers: Record<string, string | string[]>) =>
  rawPost(url, body, headers, agent);

const base = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const echo = (id: number | string = 1) => callLine(id).trim();
const regionCall = (region: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "region_query",
      arguments: { region, query: "q" },
      _meta: JSON.parse(callLine(1)).params._meta,
    },
  });

/** Raw bytes on a socket: lets a test send header values no HTTP client library would. */
function rawExchange(port: number, text: string | Buffer): Promise<string> {
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

async function stillServes(url = open.url, headers: Record<string, string> = {}) {
  const answer = await post(url, echo("alive"), { ...base, ...headers });
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toMatchObject({ id: "alive", result: { content: [{ text: "talive" }] } });
}

describe("forged Origin and Host", () => {
  it.each([
    ["https://evil.example", 403],
    ["http://localhost.evil.example", 403],
    ["http://127.0.0.1.nip.io", 403],
    ["file://", 403],
    ["http://localhost:1234", 200],
  ])("Origin %s -> %i", async (origin, status) => {
    const answer = await post(open.url, echo(), { ...base, origin });
    expect(answer.status).toBe(status);
    await stillServes();
  });

  it.each(["attacker.example", "127.0.0.1.attacker.example", "localhost.attacker.example:80", "evil.example:1"])(
    "Host %s is 403 (DNS rebinding)",
    async (host) => {
      const body = echo();
      const head = Object.entries({ ...base, host, "content-length": String(Buffer.byteLength(body)) })
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n");
      const answer = await rawExchange(open.port, `POST /mcp HTTP/1.1\r\n${head}\r\nconnection: close\r\n\r\n${body}`);
      expect(answer).toMatch(/^HTTP\/1\.1 403/);
      await stillServes();
    },
  );
});

describe("broken MCP headers are 400 with -32020 (or -32022 for versions)", () => {
  it.each([
    ["Mcp-Method for another method", { "mcp-method": "tools/list" }, -32020],
    ["Mcp-Name for another tool", { "mcp-name": "add" }, -32020],
    ["Mcp-Name sent twice", { "mcp-name": ["echo", "echo"] }, -32020],
    ["Mcp-Name as broken base64", { "mcp-name": "=?base64?!!!not base64?=" }, -32020],
    ["Mcp-Name with latin-1 bytes", { "mcp-name": "ech\u00f6" }, -32020],
    ["MCP-Protocol-Version garbage", { "mcp-protocol-version": "../../etc/passwd" }, undefined],
    ["MCP-Protocol-Version empty", { "mcp-protocol-version": "" }, undefined],
  ])("%s", async (_label, headers, code) => {
    const answer = await post(open.url, echo(), { ...base, ...headers });
    expect(answer.status, answer.text).toBe(400);
    if (code !== undefined) expect(JSON.parse(answer.text)).toMatchObject({ error: { code } });
    await stillServes();
  });

  it.each([
    ["missing", undefined],
    ["mismatching", "us"],
    ["broken base64", "=?base64?%%%?="],
    ["base64 of another value", `=?base64?${Buffer.from("us").toString("base64")}?=`],
    ["with surrounding spaces in the base64 wrapper", "=?base64? ZXU= ?="],
  ])("Mcp-Param-Region %s is 400 with -32020", async (_label, value) => {
    const headers: Record<string, string> = { ...base, "mcp-name": "region_query" };
    if (value !== undefined) headers["mcp-param-region"] = value;
    const answer = await post(open.url, regionCall("eu"), headers);
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32020 } });
    await stillServes();
  });

  it("a value with a control character never reaches the server as a header (the parser refuses it: 400)", async () => {
    const body = regionCall("e\u0001u");
    const head = Object.entries({
      ...base,
      "mcp-name": "region_query",
      "content-length": String(Buffer.byteLength(body)),
    })
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n");
    const answer = await rawExchange(
      open.port,
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\nmcp-param-region: e\u0001u\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    await stillServes();
  });
});

describe("bearer token", () => {
  it.each([
    ["no Authorization", undefined],
    ["an empty Bearer", "Bearer "],
    ["Basic instead of Bearer", `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`],
    ["the token as a prefix", `Bearer ${TOKEN}x`],
    ["a prefix of the token", `Bearer ${TOKEN.slice(0, -1)}`],
    ["the token twice", `Bearer ${TOKEN}, Bearer ${TOKEN}`],
    ["a very long token", `Bearer ${"x".repeat(8000)}`],
  ])("%s is 401 and says nothing about the token", async (_label, authorization) => {
    const headers: Record<string, string> = { ...base };
    if (authorization !== undefined) headers.authorization = authorization;
    const answer = await post(guarded.url, echo(), headers);
    expect(answer.status).toBe(401);
    expect(answer.text).not.toContain(TOKEN);
    await stillServes(guarded.url, { authorization: `Bearer ${TOKEN}` });
  });
});

describe("slow and many clients", () => {
  it("200 slow-loris connections are all cut off by the header timeout while others are served", async () => {
    const sockets: Socket[] = [];
    const closed: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = connectSocket(open.port, "127.0.0.1", () =>
        socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
      );
      socket.on("error", () => {});
      sockets.push(socket);
      closed.push(new Promise((resolve) => socket.on("close", () => resolve())));
    }
    // Trickle one more header line now and then, as a slow-loris does.
    const trickle = setInterval(() => {
      for (const s of sockets) if (!s.destroyed) s.write("X-Slow: 1\r\n");
    }, 100);
    try {
      const started = Date.now();
      await stillServes();
      await Promise.all(closed);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(trickle);
      for (const s of sockets) s.destroy();
    }
  }, 20_000);

  it("1,000 concurrent clients (one connection each) are all answered, each with its own id", async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => post(open.url, echo(i), base).then((a) => ({ ...a, i }))),
    );
    for (const { status, text, i } of answers) {
      expect(status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ id: i, result: { content: [{ text: `t${i}` }] } });
    }
    await stillServes();
  }, 60_000);
});
