/**
 * McpServer.defer: entries registered on first need. The handshake (initialize, server/discover),
 * ping and logging/setLevel answer without running the registration, with the capabilities the
 * entries will bring; any other request, a registration or a header lookup runs it, once, without
 * list_changed notifications (nothing changed from a client's point of view).
 */
import { describe, expect, it } from "vitest";
import { createServer, type McpServer } from "../../../runtime/index.ts";
import type { RequestChannel } from "../../../runtime/server/types.ts";

const channel = (session: Record<string, unknown> = {}) =>
  ({
    signal: new AbortController().signal,
    session,
    notify: () => {},
    request: async () => ({}),
  }) as unknown as RequestChannel;

function deferredServer(): { server: McpServer; runs: () => number } {
  const server = createServer({ name: "d", version: "1.0.0" });
  let runs = 0;
  server.defer(
    () => {
      runs++;
      server.tool({ name: "t", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
      server.prompt({ name: "p", get: () => ({ messages: [] }), complete: { a: () => ["x"] } });
    },
    { tools: true, prompts: true, completions: true },
  );
  return { server, runs: () => runs };
}

describe("deferred registration", () => {
  it("answers initialize and ping without it, stating the capabilities it will bring", async () => {
    const { server, runs } = deferredServer();
    const session: Record<string, unknown> = {};
    const init = await server.handleRequest(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      channel(session),
    );
    expect(init.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    expect(init.capabilities).not.toHaveProperty("resources");
    await server.handleRequest({ jsonrpc: "2.0", id: 2, method: "ping" }, channel(session));
    expect(runs()).toBe(0);
  });

  it("runs once, on the first request that needs the entries, and emits no list_changed", async () => {
    const { server, runs } = deferredServer();
    const changes: unknown[] = [];
    server.changes.subscribe((change) => changes.push(change));
    const session = { protocolVersion: "2025-11-25", clientCapabilities: {} };
    const listed = await server.handleRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" }, channel(session));
    expect((listed.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["t"]);
    await server.handleRequest({ jsonrpc: "2.0", id: 2, method: "prompts/list" }, channel(session));
    expect(runs()).toBe(1);
    expect(changes).toEqual([]);
    // A registration after that is a real change again.
    server.tool({ name: "u", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    expect(changes).toEqual([{ kind: "tools" }]);
  });

  it("runs before a registration of the server's own, so names clash as they would without deferral", () => {
    const { server, runs } = deferredServer();
    expect(() => server.tool({ name: "t", inputSchema: { type: "object" }, handler: () => ({ content: [] }) })).toThrow(
      /Duplicate tools registration: t/,
    );
    expect(runs()).toBe(1);
  });

  it("runs before the HTTP transport looks up a tool's header parameters", () => {
    const { server, runs } = deferredServer();
    expect(server.headerChecksFor("t", {})).toEqual([{ params: [], args: {} }]);
    expect(runs()).toBe(1);
  });
});
