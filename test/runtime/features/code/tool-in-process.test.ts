// callToolInProcess (server/features.ts): code mode's `api.<tool>(args)` runs a tool from inside the
// server exactly as a direct tools/call would (validation, handler, output checks, error results) and
// gets the result back; an input the client has not answered (2026 era) reaches the calling request.
import { describe, expect, test } from "vitest";
import { callToolInProcess } from "../../../../runtime/features/code/call-in-process.ts";
import { createServer, type McpServer } from "../../../../runtime/index.ts";
import { McpError } from "../../../../runtime/protocol/errors.ts";
import { modernMeta } from "../../helpers.ts";

let nextId = 1;
function modern(server: McpServer, method: string, params: Record<string, unknown> = {}, capabilities = {}) {
  return server.handleRequest(
    { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: modernMeta({}, capabilities) } },
    { signal: new AbortController().signal, notify: () => {} },
  );
}

function build(): McpServer {
  const server = createServer({ name: "in-process", version: "1.0.0" });
  server.tool({
    name: "double",
    unlisted: true,
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    validateInput: Object.assign((args: unknown) => typeof (args as { n?: unknown }).n === "number", {
      errors: [{ instancePath: "/n", message: "must be number" }],
    }),
    validateOutput: Object.assign((value: unknown) => typeof (value as { n?: unknown }).n === "number", {
      errors: [{ instancePath: "/n", message: "must be number" }],
    }),
    handler: (args) =>
      args.n === 13 ? { structuredContent: { n: "bad" } } : { structuredContent: { n: Number(args.n) * 2 } },
  });
  server.tool({
    name: "protocol_error",
    unlisted: true,
    inputSchema: { type: "object" },
    handler: () => {
      throw new McpError(-32603, "upstream exploded");
    },
  });
  server.tool({
    name: "ask",
    unlisted: true,
    inputSchema: { type: "object" },
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: {} } });
      return { content: [{ type: "text", text: `answer ${answer.action}` }] };
    },
  });
  // What code mode's execute does: call another tool in process and hand back what it got.
  server.tool({
    name: "relay",
    inputSchema: { type: "object" },
    handler: async (args, ctx) => {
      const result = await callToolInProcess(server, String(args.name), args.arguments, ctx);
      return { content: [{ type: "text", text: JSON.stringify(result) }] };
    },
  });
  return server;
}

const relayed = async (server: McpServer, name: string, args: unknown, capabilities = {}) => {
  const result = await modern(
    server,
    "tools/call",
    { name: "relay", arguments: { name, arguments: args } },
    capabilities,
  );
  return JSON.parse((result.content as Array<{ text: string }>)[0].text) as Record<string, unknown>;
};

describe("callToolInProcess", () => {
  test("gives the tool's result as a direct tools/call does, content filled from structuredContent", async () => {
    const server = build();
    const direct = await modern(server, "tools/call", { name: "double", arguments: { n: 4 } });
    const inProcess = await relayed(server, "double", { n: 4 });
    expect(inProcess).toEqual({ structuredContent: { n: 8 }, content: [{ type: "text", text: '{"n":8}' }] });
    expect(direct).toMatchObject(inProcess);
  });

  test("invalid arguments, a bad output and a protocol error of the handler are error results", async () => {
    const server = build();
    expect(await relayed(server, "double", { n: "x" })).toMatchObject({ isError: true });
    expect(JSON.stringify(await relayed(server, "double", { n: "x" }))).toContain("Invalid arguments for tool double");
    expect(JSON.stringify(await relayed(server, "double", { n: 13 }))).toContain("not matching its outputSchema");
    expect(await relayed(server, "protocol_error", {})).toEqual({
      isError: true,
      content: [{ type: "text", text: "Tool protocol_error failed: upstream exploded" }],
    });
    expect(await relayed(server, "nope", {})).toMatchObject({
      isError: true,
      content: [{ text: "Unknown tool: nope" }],
    });
  });

  test("2026 era: an input the called tool needs becomes the calling request's input_required", async () => {
    const server = build();
    const elicit = { elicitation: {} };
    const params = { name: "relay", arguments: { name: "ask", arguments: {} } };
    const first = await modern(server, "tools/call", params, elicit);
    expect(first.resultType).toBe("input_required");
    const retry = {
      ...params,
      requestState: first.requestState,
      inputResponses: { "elicitation-0": { action: "decline" } },
    };
    const answer = await modern(server, "tools/call", retry, elicit);
    expect(JSON.parse((answer.content as Array<{ text: string }>)[0].text)).toMatchObject({
      content: [{ type: "text", text: "answer decline" }],
    });
  });
});
