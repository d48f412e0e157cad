// Client behaviour against small hand-rolled HTTP servers that play specific
// roles: a 2025-era-only server (fallback), a server whose SSE stream drops
// (resumption), and a server with malformed x-mcp-header tools (filtering).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { connect } from "../../../../runtime/index.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown> | undefined) => void;
const servers: Server[] = [];

async function fakeServer(handler: Handler): Promise<{
  url: string;
  seen: Array<{ method: string; headers: IncomingMessage["headers"]; body?: Record<string, unknown> }>;
}> {
  const seen: Array<{ method: string; headers: IncomingMessage["headers"]; body?: Record<string, unknown> }> = [];
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    seen.push({ method: req.method ?? "", headers: req.headers, body });
    handler(req, res, body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

function legacyServer(extra: Handler = () => {}): Handler {
  return (req, res, body) => {
    if (req.method === "GET") return void res.writeHead(405).end();
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (body?.method === "initialize") {
      return json(
        res,
        200,
        {
          jsonrpc: "2.0",
          id: body.id,
          result: {
            protocolVersion: "2025-03-26",
            capabilities: { tools: {} },
            serverInfo: { name: "legacy", version: "1" },
          },
        },
        { "Mcp-Session-Id": "session-42" },
      );
    }
    if (!req.headers["mcp-session-id"]) {
      // What the 1.x SDK answers to a sessionless non-initialize request: not a modern error.
      return json(res, 400, {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: No valid session ID provided" },
        id: null,
      });
    }
    if (body?.id === undefined) return void res.writeHead(202).end();
    extra(req, res, body);
  };
}

describe("client era detection over HTTP", () => {
  test("falls back to initialize on a 400 without a modern error, then uses the session", async () => {
    const { url, seen } = await fakeServer(
      legacyServer((_req, res, body) => json(res, 200, { jsonrpc: "2.0", id: body?.id, result: { tools: [] } })),
    );
    const client = await connect({ url });
    expect(client.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-03-26");
    await client.listTools();
    await client.close();
    const posts = seen.filter((entry) => entry.method === "POST");
    expect(posts.map((entry) => entry.body?.method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
    ]);
    expect(posts[0].headers["mcp-method"]).toBe("server/discover");
    expect(posts[0].headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(posts[1].headers["mcp-protocol-version"]).toBeUndefined();
    expect(posts[3].headers["mcp-session-id"]).toBe("session-42");
    expect(posts[3].headers["mcp-protocol-version"]).toBe("2025-03-26");
    expect(posts[3].headers["mcp-method"]).toBeUndefined();
    expect(seen.at(-1)?.method).toBe("DELETE");
  });

  test("an UnsupportedProtocolVersion error listing only 2025 versions leads to initialize, not a blind retry", async () => {
    const { url, seen } = await fakeServer((req, res, body) => {
      if (body?.method === "server/discover") {
        return json(res, 400, {
          jsonrpc: "2.0",
          id: body.id,
          error: {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2025-06-18"], requested: "2026-07-28" },
          },
        });
      }
      legacyServer()(req, res, body);
    });
    const client = await connect({ url });
    expect(client.era).toBe("legacy");
    await client.close();
    expect(seen.find((entry) => entry.body?.method === "initialize")?.body?.params).toMatchObject({
      protocolVersion: "2025-06-18",
    });
  });
});

describe("client connection failures", () => {
  test("an unreachable URL rejects connect", async () => {
    await expect(connect({ url: "http://127.0.0.1:1/mcp" })).rejects.toThrow();
  });
});

describe("client version retry", () => {
  test("after -32022 listing 2026-07-28 the client retries discovery with it instead of falling back", async () => {
    let rejected = false;
    const { url, seen } = await fakeServer((_req, res, body) => {
      if (!rejected) {
        rejected = true;
        return json(res, 400, {
          jsonrpc: "2.0",
          id: body?.id,
          error: {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2026-07-28"], requested: "x" },
          },
        });
      }
      json(res, 200, {
        jsonrpc: "2.0",
        id: body?.id,
        result: {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: {},
          ttlMs: 0,
          cacheScope: "private",
        },
      });
    });
    const client = await connect({ url });
    expect(client.era).toBe("modern");
    await client.close();
    expect(seen.map((entry) => entry.body?.method)).toEqual(["server/discover", "server/discover"]);
  });
});

describe("client SSE handling", () => {
  test("a dropped 2025-era stream is resumed with GET + Last-Event-ID after the retry delay", async () => {
    let resumedAt = 0;
    let droppedAt = 0;
    let callId: unknown;
    const { url, seen } = await fakeServer((req, res, body) => {
      if (req.method === "GET" && req.headers["last-event-id"]) {
        resumedAt = Date.now();
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(
          `id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "progress-1", progress: 2 } })}\n\n`,
        );
        res.end(
          `id: e3\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`,
        );
        return;
      }
      if (body?.method === "tools/call") {
        callId = body.id;
        res.writeHead(200, { "Content-Type": "text/event-stream", "Mcp-Session-Id": "session-42" });
        res.write("id: e0\ndata:\n\n"); // priming event
        res.write(
          `id: e1\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "progress-1", progress: 1 } })}\n\n`,
        );
        res.end("retry: 150\n\n"); // server closes the connection, not the stream
        droppedAt = Date.now();
        return;
      }
      legacyServer()(req, res, body);
    });
    const client = await connect({ url }, { protocolVersion: "2025-03-26" });
    const progress: number[] = [];
    const result = await client.callTool("x", {}, { onProgress: (p) => progress.push(p.progress) });
    await client.close();
    const resume = seen.find((entry) => entry.method === "GET" && entry.headers["last-event-id"]);
    expect(resume?.headers["last-event-id"]).toBe("e1");
    expect(resume?.headers["mcp-session-id"]).toBe("session-42");
    expect(resumedAt - droppedAt).toBeGreaterThanOrEqual(140);
    expect(progress).toEqual([1, 2]);
    expect(result.content).toEqual([{ type: "text", text: "resumed" }]);
  });
});

describe("client x-mcp-header handling", () => {
  const tools = [
    {
      name: "good",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          n: { type: "integer", "x-mcp-header": "N" },
        },
      },
    },
    {
      name: "uses_number",
      inputSchema: { type: "object", properties: { x: { type: "number", "x-mcp-header": "X" } } },
    },
    {
      name: "dup",
      inputSchema: {
        type: "object",
        properties: { a: { type: "string", "x-mcp-header": "A" }, b: { type: "string", "x-mcp-header": "a" } },
      },
    },
    { name: "plain", inputSchema: { type: "object" } },
  ];

  test("drops tools with invalid annotations (with a warning) and mirrors params as headers", async () => {
    const { url, seen } = await fakeServer((_req, res, body) => {
      const id = body?.id;
      if (body?.method === "server/discover") {
        return json(res, 200, {
          jsonrpc: "2.0",
          id,
          result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
        });
      }
      if (body?.method === "tools/list")
        return json(res, 200, {
          jsonrpc: "2.0",
          id,
          result: { resultType: "complete", tools, ttlMs: 0, cacheScope: "public" },
        });
      return json(res, 200, { jsonrpc: "2.0", id, result: { resultType: "complete", content: [] } });
    });
    const warnings: string[] = [];
    const client = await connect({ url }, { warn: (message) => warnings.push(message) });
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["good", "plain"]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/"uses_number".*integer, string or boolean/);
    expect(warnings[1]).toMatch(/"dup".*not unique/);
    await client.callTool("good", { region: " padded ", n: 42 });
    await client.callTool("good", { region: null });
    await client.close();
    const calls = seen.filter((entry) => entry.body?.method === "tools/call");
    expect(calls[0].headers).toMatchObject({
      "mcp-method": "tools/call",
      "mcp-name": "good",
      "mcp-param-region": "=?base64?IHBhZGRlZCA=?=",
      "mcp-param-n": "42",
      "mcp-protocol-version": "2026-07-28",
    });
    expect(calls[1].headers["mcp-param-region"]).toBeUndefined();
    expect(calls[0].body?.params).toMatchObject({
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    });
  });
});
