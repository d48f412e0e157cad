// Graceful shutdown of the HTTP transport (issue 18 §3; runtime/transport/http/drain.ts): readiness
// first, requests still served during the grace period, then the listener closed and answers closing their connections, GET
// streams ended with a reconnect hint, requests in flight finished (or answered with an error at the
// timeout). The SIGTERM path of a real server process is in test/scale/scale-out.scale.ts.
import { Agent, request } from "node:http";
import { describe, expect, test } from "vitest";
import { serveHttp } from "../../../../runtime/index.ts";
import { buildDemoServer } from "../../fixtures/demo-server.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

const call = (name: string, args: object = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name, arguments: args, _meta: modernMeta() },
});

/** A POST on a connection of its own (no pool), so a closed listener shows as a refused connection. */
function postOnce(url: string, body: object, headers: Record<string, string>, agent: Agent | false = false) {
  return new Promise<{ status: number; connection?: string; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("close(): a graceful drain", () => {
  // Not `Connection: close` yet: a proxy would open a new connection for each request, and one still in the listen
  // queue when the listener closes is reset after the proxy sent its POST (drain.ts, step 2).
  test("during the grace period /readyz is 503 and MCP still answers, keeping the connection alive", async () => {
    const http = await serveHttp(buildDemoServer(), { shutdownGraceMs: 400 });
    const pool = new Agent({ keepAlive: true, maxSockets: 1 });
    const closed = http.close();
    const ready = await fetch(new URL("/readyz", http.url));
    expect(ready.status).toBe(503);
    const answer = await postOnce(http.url, call("echo", { text: "x" }), modernHeaders("tools/call", "echo"), pool);
    expect([answer.status, answer.connection]).toEqual([200, "keep-alive"]);
    pool.destroy();
    await closed;
  });

  test("a request in flight finishes, its answer closing the connection; after the grace period new connections are refused", async () => {
    const http = await serveHttp(buildDemoServer(), { shutdownGraceMs: 50 });
    const slow = postOnce(http.url, call("slow", { steps: 20 }), modernHeaders("tools/call", "slow"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closed = http.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expect(postOnce(http.url, call("echo", { text: "x" }), modernHeaders("tools/call", "echo"))).rejects.toThrow(
      /ECONNREFUSED/,
    );
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("done");
    expect(answer.connection).toBe("close");
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("behind a proxy, a connection idle all through the drain stays open: a POST sent on it later gets a 503, never a reset", async () => {
    const http = await serveHttp(buildDemoServer(), { shutdownGraceMs: 50, shutdownTimeoutMs: 2_000 });
    const pool = new Agent({ keepAlive: true, maxSockets: 1 });
    const echo = () => postOnce(http.url, call("echo", { text: "x" }), modernHeaders("tools/call", "echo"), pool);
    expect((await echo()).status).toBe(200);
    const closed = http.close();
    // Past the grace period and what it used to linger: the pool's connection, never used during the drain, is idle.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = await echo();
    expect([late.status, late.connection]).toEqual([503, "close"]);
    expect(late.text).toMatch(/shutting down; retry/);
    await closed;
    pool.destroy();
  });

  test("a 2025-era GET stream ends with a retry hint", async () => {
    const http = await serveHttp(buildDemoServer());
    const init = await rawPost(http.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    const session = init.headers.get("mcp-session-id") ?? "";
    const stream = await fetch(http.url, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
    });
    expect(stream.status).toBe(200);
    const body = stream.text();
    await http.close();
    expect(await body).toMatch(/retry: \d+\n\n$/);
  });

  test("a request still running at the shutdown timeout is answered with an error, and close() returns", async () => {
    const http = await serveHttp(buildDemoServer(), { shutdownTimeoutMs: 300 });
    const hanging = rawPost(http.url, call("hang"), modernHeaders("tools/call", "hang"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await http.close();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    const answer = await hanging;
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({
      error: { message: expect.stringMatching(/shut down before this request finished/) },
    });
  });
});

describe("routing headers on a 2025-era request", () => {
  test("Mcp-Method or Mcp-Name that disagree with the body are refused before anything runs (a proxy routes on them)", async () => {
    const http = await serveHttp(buildDemoServer());
    try {
      const init = await rawPost(http.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      });
      const headers = {
        "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "",
        "MCP-Protocol-Version": "2025-11-25",
      };
      const body = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "explode", arguments: {} } };
      const lying = await rawPost(http.url, body, { ...headers, "Mcp-Method": "tools/call", "Mcp-Name": "echo" });
      expect(lying.status).toBe(400);
      expect(lying.json).toMatchObject({
        id: 2,
        error: { message: expect.stringMatching(/Mcp-Name header 'echo' does not match/) },
      });
      const honest = await rawPost(http.url, body, { ...headers, "Mcp-Method": "tools/call", "Mcp-Name": "explode" });
      expect(honest.status).toBe(200);
      expect((await rawPost(http.url, body, headers)).status).toBe(200);
    } finally {
      await http.close();
    }
  });
});
