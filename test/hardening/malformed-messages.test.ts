/**
 * A corpus of malformed and hostile JSON-RPC messages, on stdio (a real server process) and over HTTP
 * (a real socket). Each gets the right error (or, for what JSON-RPC says to ignore, nothing), and the
 * server answers the next valid request as if nothing had happened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../runtime/index.ts";
import { buildDemoServer } from "../runtime/fixtures/demo-server.ts";
import { callLine, MODERN_META, rawPost, startStdio, type WireMessage } from "./wire.ts";

const meta = JSON.stringify(MODERN_META);
const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** What a message must get back: a JSON-RPC error (with the id, when usable), a result, or nothing. */
type Expect = { error: number; id?: unknown } | { result: true; id: unknown } | "nothing";
type Case = { name: string; line: string | Buffer; expect: Expect; http?: number };

const CORPUS: Case[] = [
  { name: "invalid JSON", line: "{not json", expect: { error: -32700 }, http: 400 },
  { name: "truncated JSON", line: '{"jsonrpc":"2.0","id":5,"method":', expect: { error: -32700 }, http: 400 },
  { name: "a bare string", line: '"tools/list"', expect: { error: -32600 }, http: 400 },
  { name: "null", line: "null", expect: { error: -32600 }, http: 400 },
  { name: "a batch (array)", line: `[${callLine(1).trim()}]`, expect: { error: -32600 }, http: 400 },
  { name: "an empty batch", line: "[]", expect: { error: -32600 }, http: 400 },
  {
    name: 'jsonrpc "1.0"',
    line: '{"jsonrpc":"1.0","id":7,"method":"ping"}',
    expect: { error: -32600, id: 7 },
    http: 400,
  },
  { name: "jsonrpc missing", line: '{"id":8,"method":"ping"}', expect: { error: -32600, id: 8 }, http: 400 },
  { name: "id null", line: '{"jsonrpc":"2.0","id":null,"method":"ping"}', expect: { error: -32600 }, http: 400 },
  { name: "id true", line: '{"jsonrpc":"2.0","id":true,"method":"ping"}', expect: { error: -32600 }, http: 400 },
  { name: "id 1.5", line: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', expect: { error: -32600 }, http: 400 },
  {
    name: "id an object",
    line: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
    expect: { error: -32600 },
    http: 400,
  },
  {
    name: "id 1e400 (Infinity)",
    line: '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    expect: { error: -32600 },
    http: 400,
  },
  {
    // JSON.parse rounds it: answering would echo an id the client never sent.
    name: "id beyond 2^53",
    line: '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
    expect: { error: -32600 },
    http: 400,
  },
  {
    name: "a 1 MB string id",
    line: callLine("i".repeat(1 << 20)).trim(),
    expect: { result: true, id: "i".repeat(1 << 20) },
    http: 200,
  },
  {
    name: "method not a string",
    line: '{"jsonrpc":"2.0","id":9,"method":42}',
    expect: { error: -32600, id: 9 },
    http: 400,
  },
  {
    name: "params an array",
    line: '{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}',
    expect: { error: -32600, id: 10 },
    http: 400,
  },
  {
    name: "params nested 100,000 deep",
    line: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":${deep(100_000)}}`,
    expect: { error: -32600, id: 11 },
    http: 400,
  },
  {
    name: "arguments nested 100,000 deep",
    line: `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"text":"deep","x":${deep(100_000)}},"_meta":${meta}}}`,
    expect: { result: true, id: 12 },
    http: 200,
  },
  {
    name: "arguments nested 100,000 deep into a validated object",
    line: `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":${deepObject(100_000)}},"_meta":${meta}}}`,
    expect: { result: true, id: 13 }, // an isError result: b is not an integer
    http: 200,
  },
  {
    name: "invalid UTF-8 inside a string (decoded as U+FFFD)",
    line: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(`"},"_meta":${meta}}}`),
    ]),
    expect: { result: true, id: 14 },
    http: 200,
  },
  {
    name: "invalid UTF-8 outside strings",
    line: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":15,'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('"method":"ping"}'),
    ]),
    expect: { error: -32700 },
    http: 400,
  },
  {
    name: "an unknown method",
    line: `{"jsonrpc":"2.0","id":16,"method":"nope/nope","params":{"_meta":${meta}}}`,
    expect: { error: -32601, id: 16 },
    http: 404,
  },
  {
    name: "method __proto__",
    line: `{"jsonrpc":"2.0","id":17,"method":"__proto__","params":{"_meta":${meta}}}`,
    expect: { error: -32601, id: 17 },
    http: 404,
  },
  {
    name: "tool __proto__",
    line: `{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"__proto__","arguments":{},"_meta":${meta}}}`,
    expect: { error: -32602, id: 18 },
    http: 200,
  },
  {
    name: "arguments carrying __proto__",
    line: `{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"echo","arguments":{"text":"p","__proto__":{"polluted":1}},"_meta":${meta}}}`,
    expect: { result: true, id: 19 },
    http: 200,
  },
  { name: "a response to nothing we asked", line: '{"jsonrpc":"2.0","id":999,"result":{}}', expect: "nothing" },
  { name: "an unknown notification", line: '{"jsonrpc":"2.0","method":"notifications/bogus"}', expect: "nothing" },
  {
    name: "a cancellation for an unknown request",
    line: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}',
    expect: "nothing",
  },
];

function matches(message: WireMessage, expected: Exclude<Expect, "nothing">): boolean {
  if ("result" in expected) return message.id === expected.id && message.result !== undefined;
  if (message.error?.code !== expected.error) return false;
  return expected.id === undefined ? !("id" in message) || message.id === undefined : message.id === expected.id;
}

describe("malformed messages on stdio", () => {
  const server = startStdio();
  afterAll(() => server.stop());

  it.each(CORPUS.map((c, i) => [c.name, c, i] as const))("%s", async (_name, entry, i) => {
    const before = server.messages.length;
    const followUp = 10_000 + i;
    await server.write(Buffer.concat([Buffer.from(entry.line), Buffer.from("\n")]));
    await server.write(callLine(followUp));
    const all = await server.waitFor((m) => m.slice(before).some((x) => x.id === followUp));
    const fresh = all.slice(before).filter((x) => x.id !== followUp);
    if (entry.expect === "nothing") expect(fresh).toEqual([]);
    else {
      expect(fresh, JSON.stringify(fresh).slice(0, 500)).toHaveLength(1);
      expect(matches(fresh[0], entry.expect), JSON.stringify(fresh[0]).slice(0, 500)).toBe(true);
    }
    // The valid request that followed is answered normally.
    expect(all.find((x) => x.id === followUp)?.result).toMatchObject({ content: [{ text: `t${followUp}` }] });
  });

  it("a request before initialization (no _meta, no initialize) is refused, the next one served", async () => {
    const fresh = startStdio();
    try {
      await fresh.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
      await fresh.write(callLine(2));
      const all = await fresh.waitFor((m) => m.length >= 2);
      expect(all.find((m) => m.id === 1)?.error?.code).toBe(-32602);
      expect(all.find((m) => m.id === 2)?.result).toBeDefined();
    } finally {
      await fresh.stop();
    }
  });

  it("a duplicate id while the first request runs is -32600; the first still gets its one answer", async () => {
    const before = server.messages.length;
    await server.write(callLine("dup", "slow", { steps: 3 }));
    await server.write(callLine("dup", "echo", { text: "second" }));
    const all = await server.waitFor((m) => m.slice(before).filter((x) => x.id === "dup").length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing else may arrive for it
    const answers = all.slice(before).filter((x) => x.id === "dup");
    expect(answers).toHaveLength(2);
    expect(answers[0].error?.code).toBe(-32600);
    expect(answers[1].result).toMatchObject({ content: [{ text: "done" }] });
  });

  it("a 100 MB line is refused without buffering it, and the server keeps serving", async () => {
    const before = server.messages.length;
    const chunk = Buffer.alloc(1 << 20, 0x61);
    await server.write(
      '{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"echo","arguments":{"text":"',
    );
    for (let i = 0; i < 100; i++) await server.write(chunk);
    await server.write(`"},"_meta":${meta}}}\n`);
    await server.write(callLine("after-huge"));
    const all = await server.waitFor((m) => m.slice(before).some((x) => x.id === "after-huge"), 60_000);
    const fresh = all.slice(before);
    expect(fresh.filter((x) => x.id !== "after-huge")).toEqual([
      { jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/longer than/) } },
    ]);
    expect(server.child.exitCode).toBeNull();
  }, 90_000);
});

describe("malformed messages over HTTP", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(buildDemoServer());
  });
  afterAll(() => http?.close());

  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    rawPost(http.url, body, {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      ...headers,
    });

  /** The Mcp-Method/Mcp-Name headers the body asks for, read leniently from the (maybe broken) text. */
  const headersFor = (line: string | Buffer) => {
    const text = line.toString();
    const method = /"method":"([^"]+)"/.exec(text)?.[1];
    const name = /"name":"([^"]+)"/.exec(text)?.[1];
    return {
      ...(method ? { "mcp-method": method } : {}),
      ...(name && method === "tools/call" ? { "mcp-name": name } : {}),
    };
  };

  it.each(CORPUS.filter((c) => c.http !== undefined).map((c) => [c.name, c] as const))("%s", async (_name, entry) => {
    const response = await post(entry.line, headersFor(entry.line));
    expect(response.status, response.text.slice(0, 300)).toBe(entry.http);
    const message = JSON.parse(response.text) as WireMessage;
    expect(matches(message, entry.expect as Exclude<Expect, "nothing">), response.text.slice(0, 300)).toBe(true);
    const next = await post(callLine("next"), { "mcp-method": "tools/call", "mcp-name": "echo" });
    expect(next.status).toBe(200);
  });

  it("a request before initialization (no _meta, no session) is 400, the next one served", async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { "mcp-method": "tools/list" });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ id: 1, error: { code: expect.any(Number) } });
    const next = await post(callLine("next"), { "mcp-method": "tools/call", "mcp-name": "echo" });
    expect(next.status).toBe(200);
  });

  it("the same id on concurrent stateless requests: each request gets its own single answer", async () => {
    const headers = { "mcp-method": "tools/call", "mcp-name": "echo" };
    const answers = await Promise.all(
      ["a", "b", "c"].map((text) =>
        post(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 7,
            method: "tools/call",
            params: { name: "echo", arguments: { text }, _meta: MODERN_META },
          }),
          headers,
        ),
      ),
    );
    expect(answers.map((a) => JSON.parse(a.text).result.content[0].text)).toEqual(["a", "b", "c"]);
  });

  it("JSON-RPC responses and notifications nobody asked for get 202 and no body", async () => {
    for (const line of ['{"jsonrpc":"2.0","method":"notifications/bogus"}']) {
      const response = await post(line, { "mcp-method": "notifications/bogus" });
      expect([response.status, response.text]).toEqual([202, ""]);
    }
  });

  it("a 100 MB body is 413 after at most the limit is read, and the server keeps serving", async () => {
    const big = Buffer.alloc(100 * 1024 * 1024, 0x20);
    const before = process.memoryUsage().rss;
    const response = await post(big, { "mcp-method": "tools/call", "mcp-name": "echo" }).catch((error: Error) => ({
      status: -1,
      text: error.message,
    }));
    // The server answers 413 as soon as the limit is passed; a client still sending may see the reset instead.
    expect([413, -1]).toContain(response.status);
    if (response.status === 413) expect(JSON.parse(response.text)).toMatchObject({ error: { code: -32600 } });
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024); // ~100 MB is the test's own buffer
    const next = await post(callLine("after-big"), { "mcp-method": "tools/call", "mcp-name": "echo" });
    expect(next.status).toBe(200);
  }, 60_000);
});
