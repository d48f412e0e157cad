// The transport-independent server core, driven through handleRequest.
import { describe, expect, test } from "vitest";
import { createServer, type JsonRpcNotification, type McpServer } from "../../../runtime/index.ts";
import { LegacySession } from "../../../runtime/server/session.ts";
import type { RequestChannel } from "../../../runtime/server/types.ts";
import { buildDemoServer } from "../fixtures/demo-server.ts";
import { modernMeta } from "../helpers.ts";

function channel(overrides: Partial<RequestChannel> = {}) {
  const sent: JsonRpcNotification[] = [];
  const value: RequestChannel = {
    signal: new AbortController().signal,
    notify: (message) => sent.push(message),
    ...overrides,
  };
  return { value, sent };
}

let nextId = 1;
function modern(server: McpServer, method: string, params: Record<string, unknown> = {}, extraMeta = {}, over = {}) {
  return server.handleRequest(
    { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: modernMeta(extraMeta) } },
    channel(over).value,
  );
}

describe("version handling", () => {
  test.each([
    ["2025-11-25", "2025-11-25"],
    ["2025-06-18", "2025-06-18"],
    ["2025-03-26", "2025-03-26"],
    ["2024-11-05", "2025-11-25"],
    ["2026-07-28", "2025-11-25"],
  ])("initialize with %s negotiates %s", async (requested, negotiated) => {
    const session = new LegacySession("s", () => {});
    const result = await buildDemoServer().handleRequest(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      channel({ session }).value,
    );
    expect(result.protocolVersion).toBe(negotiated);
    expect(session.protocolVersion).toBe(negotiated);
  });

  test("an unknown per-request version is -32022 with the supported list", async () => {
    const server = buildDemoServer();
    const request = {
      jsonrpc: "2.0" as const,
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    };
    await expect(server.handleRequest(request, channel().value)).rejects.toMatchObject({
      code: -32022,
      data: { requested: "2099-01-01", supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"] },
    });
  });

  test("server/discover lists versions, capabilities and identity", async () => {
    const result = await modern(buildDemoServer(), "server/discover");
    expect(result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, completions: {}, logging: {} },
      instructions: "Use echo to test.",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "demo", version: "1.2.3" } },
    });
  });

  test("cache settings apply to list and read results", async () => {
    const server = buildDemoServer({ cache: { ttlMs: 60_000, cacheScope: "public" } });
    expect(await modern(server, "prompts/list")).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    expect(await modern(server, "resources/read", { uri: "demo://readme" })).toMatchObject({ ttlMs: 60_000 });
    expect(await modern(server, "tools/call", { name: "echo", arguments: { text: "x" } })).not.toHaveProperty("ttlMs");
  });
});

describe("pagination", () => {
  test("opaque cursors walk the list; forged cursors are -32602", async () => {
    const server = createServer({ name: "p", version: "1", pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) {
      server.tool({ name, inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    }
    const names: string[] = [];
    let cursor: unknown;
    do {
      const page = await modern(server, "tools/list", cursor ? { cursor } : {});
      names.push(...(page.tools as Array<{ name: string }>).map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    const first = await modern(server, "tools/list");
    const forged = Buffer.from(JSON.stringify({ kind: "tools", offset: 4 })).toString("base64url");
    await expect(modern(server, "tools/list", { cursor: `${forged}.AAAA` })).rejects.toMatchObject({ code: -32602 });
    await expect(modern(server, "prompts/list", { cursor: first.nextCursor })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("MRTR requestState", () => {
  const elicitMeta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

  test("state is bound to the caller and expires", async () => {
    const server = buildDemoServer({ requestStateTtlMs: 50 });
    const first = await modern(server, "tools/call", { name: "ask_name", arguments: {} }, elicitMeta, {
      principal: "alice",
    });
    expect(first.resultType).toBe("input_required");
    const retry = {
      name: "ask_name",
      arguments: {},
      requestState: first.requestState,
      inputResponses: { "elicitation-0": { action: "accept", content: { name: "A" } } },
    };
    await expect(modern(server, "tools/call", retry, elicitMeta, { principal: "mallory" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/different caller/),
    });
    const ok = await modern(server, "tools/call", retry, elicitMeta, { principal: "alice" });
    expect(ok.resultType).toBe("input_required"); // second round
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(modern(server, "tools/call", retry, elicitMeta, { principal: "alice" })).rejects.toMatchObject({
      message: expect.stringMatching(/expired/),
    });
  });

  test("state minted by another process (different secret) is rejected", async () => {
    const first = await modern(buildDemoServer(), "tools/call", { name: "ask_name", arguments: {} }, elicitMeta);
    const retry = { name: "ask_name", arguments: {}, requestState: first.requestState, inputResponses: {} };
    await expect(modern(buildDemoServer(), "tools/call", retry, elicitMeta)).rejects.toMatchObject({ code: -32602 });
  });

  test("answers to keys that were not asked are ignored; missing answers are asked again", async () => {
    const server = buildDemoServer();
    const first = await modern(server, "tools/call", { name: "ask_name", arguments: {} }, elicitMeta);
    const retry = {
      name: "ask_name",
      arguments: {},
      requestState: first.requestState,
      inputResponses: { "elicitation-1": { action: "accept" } },
    };
    const again = await modern(server, "tools/call", retry, elicitMeta);
    expect(Object.keys(again.inputRequests as object)).toEqual(["elicitation-0"]);
  });
});

describe("handlers", () => {
  test("a handler that ignores its signal still yields a timeout error", async () => {
    const server = buildDemoServer({ handlerTimeoutMs: 30 });
    await expect(modern(server, "tools/call", { name: "hang", arguments: {} })).rejects.toMatchObject({ code: -32001 });
  });

  test("cancellation aborts ctx.signal and rejects without a result", async () => {
    const server = buildDemoServer();
    const controller = new AbortController();
    const pending = modern(
      server,
      "tools/call",
      { name: "wait_for_cancel", arguments: {} },
      {},
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("client cancelled")), 10);
    await expect(pending).rejects.toThrow("client cancelled");
  });

  test("progress only with a progressToken, strictly increasing", async () => {
    const server = createServer({ name: "p", version: "1" });
    server.tool({
      name: "p",
      inputSchema: { type: "object" },
      handler: (_args, ctx) => {
        ctx.progress(1);
        ctx.progress(1);
        ctx.progress(0.5);
        ctx.progress(2, 2, "done");
        return { content: [] };
      },
    });
    const withToken = channel();
    await server.handleRequest(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "p", _meta: modernMeta({ progressToken: 7 }) } },
      withToken.value,
    );
    expect(withToken.sent.map((message) => message.params)).toEqual([
      { progressToken: 7, progress: 1 },
      { progressToken: 7, progress: 2, total: 2, message: "done" },
    ]);
    const without = channel();
    await server.handleRequest(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "p", _meta: modernMeta() } },
      without.value,
    );
    expect(without.sent).toEqual([]);
  });

  test("method names that exist on Object.prototype are still unknown methods", async () => {
    await expect(modern(buildDemoServer(), "toString")).rejects.toMatchObject({ code: -32601 });
    await expect(modern(buildDemoServer(), "constructor")).rejects.toMatchObject({ code: -32601 });
  });

  test("registration rejects duplicates and invalid x-mcp-header annotations", () => {
    const server = buildDemoServer();
    expect(() =>
      server.tool({ name: "echo", inputSchema: { type: "object" }, handler: () => ({ content: [] }) }),
    ).toThrow(/Duplicate/);
    expect(() =>
      server.tool({
        name: "bad",
        inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
        handler: () => ({ content: [] }),
      }),
    ).toThrow(/integer, string or boolean/);
  });

  test("server.close() ends subscriptions/listen with a graceful result", async () => {
    const server = buildDemoServer();
    const { value, sent } = channel();
    const pending = server.handleRequest(
      {
        jsonrpc: "2.0",
        id: "sub-1",
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
      },
      value,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.tool({ name: "late", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    server.close();
    const result = await pending;
    expect(result).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" },
    });
    expect(sent.map((message) => message.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    expect(sent[1].params?._meta).toEqual({ "io.modelcontextprotocol/subscriptionId": "sub-1" });
  });

  test("list results carry only wire fields, never handlers or caller extras", async () => {
    const server = createServer({ name: "w", version: "1" });
    const extras = { http: { method: "GET", path: "/x" }, validateInput: Object.assign(() => true, { errors: null }) };
    server.tool({ name: "t", inputSchema: { type: "object" }, handler: () => ({ content: [] }), ...extras });
    server.prompt({ name: "p", get: () => ({ messages: [] }), complete: { a: () => [] }, ...extras });
    const tools = await modern(server, "tools/list");
    expect(tools.tools).toEqual([{ name: "t", inputSchema: { type: "object" } }]);
    const prompts = await modern(server, "prompts/list");
    expect(prompts.prompts).toEqual([{ name: "p" }]);
  });

  test("prompt arguments must be strings", async () => {
    await expect(
      modern(buildDemoServer(), "prompts/get", { name: "greet", arguments: { name: 3 } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
