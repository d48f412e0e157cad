// Tools that are callable but not listed (`unlisted`), a tool that forwards its call to another
// (`forwardTo`, dynamic mode's call_tool), and the unknown-tool message hook: the server-core pieces
// dynamic mode stands on, driven through handleRequest in the 2026 era (MRTR rounds included).
import { describe, expect, test } from "vitest";
import { createServer, type McpServer } from "../../../runtime/index.ts";
import { forwardTo } from "../../../runtime/server/features.ts";
import { modernMeta } from "../helpers.ts";

let nextId = 1;
function modern(server: McpServer, method: string, params: Record<string, unknown> = {}, capabilities = {}) {
  return server.handleRequest(
    { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: modernMeta({}, capabilities) } },
    { signal: new AbortController().signal, notify: () => {} },
  );
}

function build(): McpServer {
  const server = createServer({
    name: "forward",
    version: "1.0.0",
    unknownToolMessage: (name) => (name === "hidden_by_flag" ? `Unknown tool: ${name}: it is not enabled` : undefined),
  });
  server.tool({
    name: "secret",
    unlisted: true,
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    validateInput: Object.assign((args: unknown) => typeof (args as { n?: unknown }).n === "number", {
      errors: [{ instancePath: "/n", message: "must be number" }],
    }),
    handler: (args) => ({ structuredContent: { n: Number(args.n) * 2 } }),
  });
  server.tool({
    name: "ask",
    unlisted: true,
    inputSchema: { type: "object" },
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      return { content: [{ type: "text", text: `hello ${answer.content?.name}` }] };
    },
  });
  server.tool({
    name: "via",
    inputSchema: { type: "object" },
    handler: (args) =>
      forwardTo({ name: String(args.name), arguments: args.arguments, meta: { "dev.test/via": true } }),
  });
  return server;
}

describe("unlisted and forwarding tools", () => {
  test("an unlisted tool is callable but not in tools/list", async () => {
    const server = build();
    expect((await modern(server, "tools/list")).tools).toEqual([{ name: "via", inputSchema: { type: "object" } }]);
    expect(await modern(server, "tools/call", { name: "secret", arguments: { n: 2 } })).toMatchObject({
      structuredContent: { n: 4 },
    });
  });

  test("a forward gives the named tool's own result, validation included, with the forward's _meta", async () => {
    const server = build();
    const direct = await modern(server, "tools/call", { name: "secret", arguments: { n: 21 } });
    const forwarded = await modern(server, "tools/call", {
      name: "via",
      arguments: { name: "secret", arguments: { n: 21 } },
    });
    expect(forwarded).toEqual({ ...direct, _meta: { ...(direct._meta as object), "dev.test/via": true } });
    const invalid = await modern(server, "tools/call", {
      name: "via",
      arguments: { name: "secret", arguments: { n: "x" } },
    });
    expect(invalid).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Invalid arguments for tool secret: /n must be number" }],
    });
  });

  test("a forward carries MRTR rounds through: input_required, then the answer on retry", async () => {
    const server = build();
    const elicit = { elicitation: {} };
    const params = { name: "via", arguments: { name: "ask" } };
    const first = await modern(server, "tools/call", params, elicit);
    expect(first.resultType).toBe("input_required");
    const retry = {
      ...params,
      requestState: first.requestState,
      inputResponses: { "elicitation-0": { action: "accept", content: { name: "Ada" } } },
    };
    expect(await modern(server, "tools/call", retry, elicit)).toMatchObject({
      content: [{ type: "text", text: "hello Ada" }],
      _meta: { "dev.test/via": true },
    });
  });

  test("one hop only, and an unknown target is the unknown-tool error", async () => {
    const server = build();
    const loop = await modern(server, "tools/call", { name: "via", arguments: { name: "via", arguments: {} } });
    expect(loop).toMatchObject({
      isError: true,
      content: [{ text: "Tool via cannot forward a call that was itself forwarded" }],
    });
    await expect(modern(server, "tools/call", { name: "via", arguments: { name: "nope" } })).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: nope",
    });
  });

  test("unknownToolMessage says more about a name the server knows of but does not serve", async () => {
    const server = build();
    await expect(modern(server, "tools/call", { name: "hidden_by_flag" })).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: hidden_by_flag: it is not enabled",
    });
  });
});
