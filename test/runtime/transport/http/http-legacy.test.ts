// The 2025 era over Streamable HTTP: initialize, sessions, real server-to-client
// requests on the POST stream, the GET stream, DELETE.
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
import { rawPost, sseMessages } from "../../helpers.ts";

let demo: McpServer;
let http: HttpServerHandle;
let client: McpClient;
const elicitations: string[] = [];

beforeAll(async () => {
  demo = buildDemoServer({ handlerTimeoutMs: 2_000 });
  http = await serveHttp(demo);
  client = await connect(
    { url: http.url },
    {
      protocolVersion: "2025-11-25",
      handlers: {
        elicitation: (params): ElicitResult => {
          elicitations.push(params.message);
          return {
            action: "accept",
            content: params.message.startsWith("Your name") ? { name: "Ada" } : { colour: "red" },
          };
        },
        sampling: () => ({ role: "assistant", content: { type: "text", text: "Rome" }, model: "m" }),
        roots: () => ({ roots: [{ uri: "file:///only" }] }),
      },
    },
  );
});

afterAll(async () => {
  await client.close();
  await http.close();
});

async function initialize(version = "2025-06-18") {
  const response = await rawPost(http.url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  return { response, sessionId: response.headers.get("mcp-session-id") ?? "" };
}

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("2025 era over HTTP, through the client", () => {
  test("initialize negotiates the requested version", () => {
    expect(client.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.server.info).toMatchObject({ name: "demo", version: "1.2.3" });
  });

  test("results carry no 2026-only fields from the server (the client adds resultType: complete)", async () => {
    const raw = await client.request("tools/list");
    expect(raw).not.toHaveProperty("ttlMs");
    expect(raw).not.toHaveProperty("cacheScope");
    expect(raw.resultType).toBe("complete");
  });

  test("ping works", async () => {
    await expect(client.ping()).resolves.toBeUndefined();
  });

  test("elicitation happens as real server-to-client requests", async () => {
    const result = await client.callTool("ask_name", {});
    expect(result.content).toEqual([{ type: "text", text: "Ada likes red" }]);
    expect(elicitations).toEqual(["Your name?", "Hi Ada, favourite colour?"]);
  });

  test("sampling and roots as parallel server-to-client requests", async () => {
    const result = await client.callTool("sample_and_roots", {});
    expect(result.content).toEqual([{ type: "text", text: "Rome/1" }]);
  });

  test("unknown resource is -32002 in this era", async () => {
    await expect(client.readResource("demo://missing")).rejects.toMatchObject({ code: -32002 });
  });

  test("logging/setLevel filters notifications/message", async () => {
    const levels: unknown[] = [];
    const stop = client.onNotification((message) => {
      if (message.method === "notifications/message") levels.push(message.params?.level);
    });
    await client.setLogLevel("warning");
    await client.callTool("slow", { steps: 1 });
    await client.setLogLevel("debug");
    await client.callTool("slow", { steps: 1 });
    stop();
    expect(levels).toEqual(["info"]);
  });

  test("resources/subscribe + list_changed arrive on the GET stream", async () => {
    const seen: string[] = [];
    const stop = client.onNotification((message) => {
      seen.push(`${message.method}${message.params?.uri ? `:${message.params.uri}` : ""}`);
    });
    await client.subscribeResource("demo://readme");
    await new Promise((resolve) => setTimeout(resolve, 50)); // the GET stream opens in the background
    demo.notifyResourceUpdated("demo://readme");
    demo.notifyResourceUpdated("demo://not-subscribed");
    demo.prompt({ name: "later", get: () => ({ messages: [] }) }).remove();
    await waitFor(() => seen.length >= 3);
    stop();
    expect(seen).toEqual([
      "notifications/resources/updated:demo://readme",
      "notifications/prompts/list_changed",
      "notifications/prompts/list_changed",
    ]);
    await client.unsubscribeResource("demo://readme");
  });

  test("cancelling a call sends notifications/cancelled and aborts the handler", async () => {
    const controller = new AbortController();
    const call = client.callTool("wait_for_cancel", {}, { signal: controller.signal });
    await waitFor(() => events.filter((event) => event === "started:wait_for_cancel").length > 0);
    const before = events.filter((event) => event === "cancelled:wait_for_cancel").length;
    controller.abort(new Error("user gave up"));
    await expect(call).rejects.toThrow("user gave up");
    await waitFor(() => events.filter((event) => event === "cancelled:wait_for_cancel").length > before, 1_000);
  });
});

describe("2025 era over HTTP, raw wire checks", () => {
  test("initialize returns Mcp-Session-Id and echoes a supported version", async () => {
    const { response, sessionId } = await initialize("2025-03-26");
    expect(response.status).toBe(200);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json).toMatchObject({ result: { protocolVersion: "2025-03-26", serverInfo: { name: "demo" } } });
    expect((response.json as { result: object }).result).not.toHaveProperty("resultType");
  });

  test("an unknown version is answered with the latest 2025-era version", async () => {
    const { response } = await initialize("2024-01-01");
    expect(response.json).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  });

  test("requests need a valid session: 400 without, 404 for unknown", async () => {
    const missing = await rawPost(http.url, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(missing.status).toBe(400);
    const unknown = await rawPost(
      http.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "Mcp-Session-Id": "nope" },
    );
    expect(unknown.status).toBe(404);
  });

  test("an unsupported MCP-Protocol-Version header is 400", async () => {
    const { sessionId } = await initialize();
    const response = await rawPost(
      http.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "1999-01-01" },
    );
    expect(response.status).toBe(400);
  });

  test("notifications get 202; DELETE ends the session", async () => {
    const { sessionId } = await initialize();
    const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-06-18" };
    const note = await rawPost(http.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect(note.status).toBe(202);
    const list = await rawPost(http.url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, headers);
    expect(list.status).toBe(200);
    const deleted = await fetch(http.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    const after = await rawPost(http.url, { jsonrpc: "2.0", id: 4, method: "tools/list" }, headers);
    expect(after.status).toBe(404);
  });

  test("a second GET stream for the same session is 409; GET streams carry SSE headers", async () => {
    const { sessionId } = await initialize();
    const headers = { "Mcp-Session-Id": sessionId, Accept: "text/event-stream" };
    const controller = new AbortController();
    const first = await fetch(http.url, { headers, signal: controller.signal });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    expect(first.headers.get("x-accel-buffering")).toBe("no");
    const second = await fetch(http.url, { headers });
    expect(second.status).toBe(409);
    controller.abort();
  });

  test("server-to-client requests ride the POST's SSE stream and are answered by POSTing responses", async () => {
    const init = await rawPost(http.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: {}, sampling: {} },
        clientInfo: { name: "raw", version: "0" },
      },
    });
    const headers = {
      "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "",
      "MCP-Protocol-Version": "2025-11-25",
    };
    const call = await fetch(http.url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "sample_and_roots", arguments: {} },
      }),
    });
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    expect(call.headers.get("mcp-session-id")).toBe(headers["Mcp-Session-Id"]);
    const reader = call.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const answered = new Set<unknown>();
    while (!sseMessages(text).some((message) => message.id === 9 && !("method" in message))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (const message of sseMessages(text)) {
        if (typeof message.method !== "string" || !("id" in message) || answered.has(message.id)) continue;
        answered.add(message.id);
        const result =
          message.method === "roots/list"
            ? { roots: [{ uri: "file:///x" }, { uri: "file:///y" }, { uri: "file:///z" }] }
            : { role: "assistant", content: { type: "text", text: "Oslo" }, model: "m" };
        const reply = await rawPost(http.url, { jsonrpc: "2.0", id: message.id, result }, headers);
        expect(reply.status).toBe(202);
      }
    }
    expect([...sseMessages(text)].map((message) => message.method ?? "response").sort()).toEqual([
      "response",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(sseMessages(text).at(-1)).toMatchObject({ id: 9, result: { content: [{ text: "Oslo/3" }] } });
  });

  test("a server-to-client request the client has no capability for is -32021, not a hang", async () => {
    const { sessionId } = await initialize("2025-11-25");
    const sampling = await rawPost(
      http.url,
      { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "sample_and_roots", arguments: {} } },
      { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" },
    );
    expect(sampling.json).toMatchObject({ id: 10, error: { code: -32021 } });
  });

  test("SSE streams are resumable: priming event with retry, then replay via GET + Last-Event-ID", async () => {
    const { sessionId } = await initialize("2025-11-25");
    const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
    const controller = new AbortController();
    const call = await fetch(http.url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 77,
        method: "tools/call",
        params: { name: "slow", arguments: { steps: 4 }, _meta: { progressToken: "p" } },
      }),
      signal: controller.signal,
    });
    const reader = call.body!.getReader();
    let text = "";
    while (!/data: \{[^\n]*"progress":1/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort(); // the connection drops; in this era that is not a cancellation
    const priming = text.split("\n\n")[0];
    expect(priming).toMatch(/^id: \S+_0\nretry: 1000\ndata: $/);
    const lastId = [...text.matchAll(/^id: (\S+)$/gm)].at(-1)?.[1] ?? "";
    const resumed = await fetch(http.url, {
      headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": lastId },
    });
    expect(resumed.status).toBe(200);
    const rest = sseMessages(await resumed.text()).filter((message) => message.method !== "notifications/message");
    expect(
      rest.map((message) => (message.params as { progress?: number } | undefined)?.progress ?? message.id),
    ).toEqual([2, 3, 4, 77]);
    expect(rest.at(-1)).toMatchObject({ id: 77, result: { content: [{ text: "done" }] } });
    const unknown = await fetch(http.url, {
      headers: { ...headers, Accept: "text/event-stream", "Last-Event-ID": "nope_1" },
    });
    expect(unknown.status).toBe(404);
  });

  test("an expired session (404) makes the client initialize a new one and retry", async () => {
    const server = buildDemoServer();
    let initializations = 0;
    const handle = server.handleRequest.bind(server);
    server.handleRequest = (request, channel) => {
      if (request.method === "initialize") initializations++;
      return handle(request, channel);
    };
    const shortLived = await serveHttp(server, { sessionIdleMs: 100 });
    const legacyClient = await connect({ url: shortLived.url }, { protocolVersion: "2025-11-25" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 350)); // the sweeper drops the idle session
      const result = await legacyClient.callTool("echo", { text: "again" });
      expect(result.content).toEqual([{ type: "text", text: "again" }]);
      expect(initializations).toBe(2);
    } finally {
      await legacyClient.close();
      await shortLived.close();
    }
  });
});
