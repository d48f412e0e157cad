// 2026-07-28 over Streamable HTTP: a real server on 127.0.0.1 and the real client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ElicitResult } from "../../../../runtime/index.ts";
import {
  connect,
  type HttpServerHandle,
  type McpClient,
  type McpServer,
  serveHttp,
} from "../../../../runtime/index.ts";
import { buildDemoServer, events } from "../../fixtures/demo-server.ts";
import { MODERN, modernHeaders, modernMeta, rawPost, sseMessages } from "../../helpers.ts";

let demo: McpServer;
let http: HttpServerHandle;
let client: McpClient;

beforeAll(async () => {
  demo = buildDemoServer({ pageSize: 4, handlerTimeoutMs: 300 });
  http = await serveHttp(demo);
  client = await connect(
    { url: http.url },
    {
      clientInfo: { name: "test-client", version: "1.0.0" },
      handlers: {
        elicitation: (params): ElicitResult => ({
          action: "accept",
          content: params.message.startsWith("Your name") ? { name: "Ada" } : { colour: "green" },
        }),
        sampling: () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "m" }),
        roots: () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }),
      },
    },
  );
});

afterAll(async () => {
  await client.close();
  await http.close();
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("2026-07-28 over HTTP, through the client", () => {
  test("connect discovers the server and stays modern", () => {
    expect(client.era).toBe("modern");
    expect(client.protocolVersion).toBe(MODERN);
    expect(client.server.info).toMatchObject({ name: "demo", version: "1.2.3", title: "Demo Server" });
    expect(client.server.supportedVersions).toContain("2025-11-25");
    expect(client.server.instructions).toBe("Use echo to test.");
    expect(client.server.capabilities.tools).toEqual({ listChanged: true });
  });

  test("listTools follows cursors across pages and keeps registration order", async () => {
    const result = await client.listTools();
    expect(result.tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add",
      "bad_output",
      "region_query",
      "slow",
      "wait_for_cancel",
      "events",
      "exit_process",
      "hang",
      "explode",
      "protocol_error",
      "ask_name",
      "sample_and_roots",
    ]);
    expect(result.resultType).toBe("complete");
    expect(result.ttlMs).toBe(0);
    expect(result.cacheScope).toBe("private");
    expect(result.nextCursor).toBeUndefined();
    expect(result.tools[0]).not.toHaveProperty("handler");
  });

  test("tools/call with structured output mirrors it as text", async () => {
    const result = await client.callTool("add", { a: 2, b: 3 });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":5}' }]);
    expect(result.isError).toBeUndefined();
  });

  test("invalid arguments give an isError result naming the problem", async () => {
    const result = await client.callTool("add", { a: "two", b: 3 });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect(JSON.stringify(result.content)).toMatch(/Invalid arguments for tool add: \/a must be integer/);
  });

  test("output not matching outputSchema is reported as a tool error", async () => {
    const result = await client.callTool("bad_output", {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/outputSchema/);
  });

  test("unknown tool is -32602", async () => {
    await expect(client.callTool("nope", {})).rejects.toMatchObject({ code: -32602 });
  });

  test("a throwing handler becomes an isError result; McpError keeps its code", async () => {
    const result = await client.callTool("explode", {});
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool explode failed: kaboom" }] });
    await expect(client.callTool("protocol_error", {})).rejects.toMatchObject({ code: -32010, data: { detail: 1 } });
  });

  test("a hanging handler times out with an error instead of hanging the request", async () => {
    await expect(client.callTool("hang", {})).rejects.toMatchObject({ code: -32001 });
  });

  test("x-mcp-header parameters are mirrored and accepted", async () => {
    const result = await client.callTool("region_query", {
      region: "Hello, 世界",
      query: "q",
      options: { priority: 3 },
    });
    expect(result.content).toEqual([{ type: "text", text: "Hello, 世界:q" }]);
  });

  test("progress and log notifications arrive over SSE", async () => {
    const progress: number[] = [];
    const logs: unknown[] = [];
    const stop = client.onNotification((message) => {
      if (message.method === "notifications/message") logs.push(message.params?.data);
    });
    await client.setLogLevel("info");
    const result = await client.callTool("slow", { steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    stop();
    await client.setLogLevel("emergency");
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
  });

  test("MRTR: multi-round elicitation is answered through the handlers", async () => {
    const result = await client.callTool("ask_name", {});
    expect(result.content).toEqual([{ type: "text", text: "Ada likes green" }]);
  });

  test("MRTR: several inputs in one round", async () => {
    const result = await client.callTool("sample_and_roots", {});
    expect(result.content).toEqual([{ type: "text", text: "Paris/2" }]);
  });

  test("resources, templates, prompts and completion", async () => {
    const resources = await client.listResources();
    expect(resources.resources).toEqual([{ uri: "demo://readme", name: "readme", mimeType: "text/plain" }]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates).toEqual([{ uriTemplate: "demo://users/{id}", name: "user" }]);
    const read = await client.readResource("demo://users/alice");
    expect(read.contents).toEqual([{ uri: "demo://users/alice", text: "user alice" }]);
    expect(read.ttlMs).toBe(0);
    const prompt = await client.getPrompt("greet", { name: "Bo" });
    expect(prompt.messages[0].content).toEqual({ type: "text", text: "Greet Bo politely" });
    const completion = await client.complete(
      { type: "ref/resource", uri: "demo://users/{id}" },
      { name: "id", value: "a" },
    );
    expect(completion.completion.values).toEqual(["alice", "anna"]);
    const promptCompletion = await client.complete({ type: "ref/prompt", name: "greet" }, { name: "style", value: "" });
    expect(promptCompletion.completion.values).toEqual(["politely", "loudly"]);
  });

  test("unknown resource is -32602 in this era; missing prompt argument is -32602", async () => {
    await expect(client.readResource("demo://missing")).rejects.toMatchObject({
      code: -32602,
      data: { uri: "demo://missing" },
    });
    await expect(client.getPrompt("greet", {})).rejects.toMatchObject({ code: -32602 });
  });

  test("subscriptions/listen acknowledges and delivers opted-in changes only", async () => {
    const received: string[] = [];
    const subscription = await client.listen(
      { toolsListChanged: true, resourceSubscriptions: ["demo://readme"] },
      (message) => received.push(`${message.method}:${JSON.stringify(message.params?.uri ?? null)}`),
    );
    expect(subscription.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ["demo://readme"] });
    const extra = demo.tool({ name: "temporary", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    demo.prompt({ name: "unrelated", get: () => ({ messages: [] }) }).remove();
    demo.notifyResourceUpdated("demo://other");
    demo.notifyResourceUpdated("demo://readme");
    extra.remove();
    await waitFor(() => received.length >= 3);
    expect(received).toEqual([
      "notifications/tools/list_changed:null",
      'notifications/resources/updated:"demo://readme"',
      "notifications/tools/list_changed:null",
    ]);
    subscription.close();
    await subscription.closed;
  });
});

describe("2026-07-28 over HTTP, raw wire checks", () => {
  const body = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, _meta: modernMeta() },
  });

  test("a plain request gets a JSON response with resultType and serverInfo", async () => {
    const response = await rawPost(http.url, body("tools/list"), modernHeaders("tools/list"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.json).toMatchObject({
      id: 1,
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "demo" } } },
    });
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });

  test.each([
    ["missing Mcp-Method", { "MCP-Protocol-Version": MODERN, "Mcp-Name": "echo" }],
    ["mismatched Mcp-Method", { ...modernHeaders("tools/list", "echo") }],
    ["missing Mcp-Name", modernHeaders("tools/call")],
    ["mismatched Mcp-Name", modernHeaders("tools/call", "add")],
    ["missing MCP-Protocol-Version", { "Mcp-Method": "tools/call", "Mcp-Name": "echo" }],
    [
      "mismatched MCP-Protocol-Version",
      { ...modernHeaders("tools/call", "echo"), "MCP-Protocol-Version": "2026-07-29" },
    ],
  ])("%s is HTTP 400 with -32020", async (_label, headers) => {
    const response = await rawPost(http.url, body("tools/call", { name: "echo", arguments: { text: "x" } }), headers);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32020 } });
  });

  test("Mcp-Param headers are required and must match the body", async () => {
    const request = body("tools/call", { name: "region_query", arguments: { region: "eu", query: "q" } });
    const missing = await rawPost(http.url, request, modernHeaders("tools/call", "region_query"));
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: { code: -32020, message: expect.stringMatching(/Mcp-Param-Region/) } });
    const wrong = await rawPost(http.url, request, {
      ...modernHeaders("tools/call", "region_query"),
      "Mcp-Param-Region": "us",
    });
    expect(wrong.status).toBe(400);
    const right = await rawPost(http.url, request, {
      ...modernHeaders("tools/call", "region_query"),
      "mcp-param-region": "eu",
    });
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ result: { content: [{ text: "eu:q" }] } });
  });

  test("a base64-encoded Mcp-Name is decoded before comparing", async () => {
    const request = body("resources/read", { uri: "demo://users/zoë" });
    const response = await rawPost(
      http.url,
      request,
      modernHeaders("resources/read", "=?base64?ZGVtbzovL3VzZXJzL3pvw6s=?="),
    );
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ result: { contents: [{ text: "user zoë" }] } });
  });

  test("unsupported protocol version is HTTP 400 with -32022 listing supported versions", async () => {
    const request = {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/list",
      params: { _meta: { ...modernMeta(), "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
    };
    const response = await rawPost(http.url, request, {
      ...modernHeaders("tools/list"),
      "MCP-Protocol-Version": "1900-01-01",
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      id: 5,
      error: {
        code: -32022,
        data: { requested: "1900-01-01", supported: expect.arrayContaining([MODERN, "2025-11-25"]) },
      },
    });
  });

  test("unknown method is HTTP 404 with -32601; legacy-only methods are unknown in this era", async () => {
    const unknown = await rawPost(http.url, body("nope/nope"), modernHeaders("nope/nope"));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { code: -32601 } });
    const ping = await rawPost(http.url, body("ping"), modernHeaders("ping"));
    expect(ping.status).toBe(404);
  });

  test("missing client capability is HTTP 400 with -32021", async () => {
    const response = await rawPost(
      http.url,
      body("tools/call", { name: "ask_name", arguments: {} }),
      modernHeaders("tools/call", "ask_name"),
    );
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  test("input_required result carries inputRequests and a sealed requestState; tampering is rejected", async () => {
    const capabilities = { elicitation: {} };
    const first = body("tools/call", { name: "ask_name", arguments: {} });
    first.params._meta = modernMeta({}, capabilities);
    const response = await rawPost(http.url, first, modernHeaders("tools/call", "ask_name"));
    const result = (response.json as { result: Record<string, unknown> }).result;
    expect(result.resultType).toBe("input_required");
    expect(Object.keys(result.inputRequests as object)).toEqual(["elicitation-0"]);
    const state = result.requestState as string;
    const retry = (requestState: string, args: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "ask_name",
        arguments: args,
        inputResponses: { "elicitation-0": { action: "accept", content: { name: "Eve" } } },
        requestState,
        _meta: modernMeta({}, capabilities),
      },
    });
    const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
    const bad = await rawPost(http.url, retry(tampered), modernHeaders("tools/call", "ask_name"));
    expect(bad.json).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/integrity/) } });
    const otherArgs = await rawPost(http.url, retry(state, { extra: 1 }), modernHeaders("tools/call", "ask_name"));
    expect(otherArgs.json).toMatchObject({
      error: { code: -32602, message: expect.stringMatching(/different request/) },
    });
    const good = await rawPost(http.url, retry(state), modernHeaders("tools/call", "ask_name"));
    const second = (good.json as { result: Record<string, unknown> }).result;
    expect(second.resultType).toBe("input_required");
    expect(Object.keys(second.inputRequests as object)).toEqual(["elicitation-1"]);
    expect(JSON.stringify(second.inputRequests)).toContain("Hi Eve");
  });

  test("progress is streamed as SSE with X-Accel-Buffering: no, final response last", async () => {
    const request = body("tools/call", { name: "slow", arguments: { steps: 2 } });
    request.params._meta = modernMeta({ progressToken: "tok" });
    const response = await rawPost(http.url, request, modernHeaders("tools/call", "slow"));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const messages = sseMessages(response.text);
    expect(messages.map((message) => message.method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    // No logLevel in _meta: the runtime must not send notifications/message.
    expect(response.text).not.toContain("notifications/message");
  });

  test("closing the response stream cancels the handler", async () => {
    const controller = new AbortController();
    const request = body("tools/call", { name: "wait_for_cancel", arguments: {} });
    const pending = fetch(http.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...modernHeaders("tools/call", "wait_for_cancel"),
      },
      body: JSON.stringify(request),
      signal: controller.signal,
    }).catch((error) => error);
    await waitFor(() => events.includes("started:wait_for_cancel"));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    // Well inside the 300 ms handler deadline, so this is the disconnect, not the timeout.
    await waitFor(() => events.includes("cancelled:wait_for_cancel"), 150);
  });

  test("notifications get 202, responses are rejected, invalid JSON is -32700", async () => {
    const note = await rawPost(
      http.url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      modernHeaders("notifications/cancelled"),
    );
    expect(note.status).toBe(202);
    expect(note.text).toBe("");
    const parse = await rawPost(http.url, "{oops", modernHeaders("tools/list"));
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ error: { code: -32700 } });
    const batch = await rawPost(http.url, [body("tools/list")], modernHeaders("tools/list"));
    expect(batch.status).toBe(400);
    expect(batch.json).toMatchObject({ error: { code: -32600 } });
  });

  test("GET and DELETE without a session are 405 with Allow", async () => {
    const get = await fetch(http.url, { headers: { Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const del = await fetch(http.url, { method: "DELETE" });
    expect(del.status).toBe(405);
    const put = await fetch(http.url, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});
