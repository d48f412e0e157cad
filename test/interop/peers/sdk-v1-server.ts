// The official SDK v1 McpServer (2025 era) exposing the shared peer fixture, over stdio or
// Streamable HTTP (stateful sessions, as most deployed v1 servers run). Usage:
//   tsx sdk-v1-server.ts stdio
//   tsx sdk-v1-server.ts http      (prints "LISTENING <url>" once bound to 127.0.0.1)
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  ASK_ELICITATION,
  addText,
  askText,
  countText,
  FAIL_MESSAGE,
  GREET_PROMPT,
  greetText,
  ITEM_TEMPLATE,
  itemText,
  PEER_SERVER_INFO,
  PEER_TOOLS,
  STATIC_RESOURCE,
  waitForAbort,
} from "../peer-fixture.ts";

// Shared by every session of this process, keyed by the caller's key.
const slowOutcomes = new Map<string, string>();

function buildServer(): McpServer {
  const server = new McpServer({ ...PEER_SERVER_INFO });
  server.registerTool(
    PEER_TOOLS.slow.name,
    { description: PEER_TOOLS.slow.description, inputSchema: { key: z.string() } },
    async ({ key }, extra) => {
      slowOutcomes.set(key, "running");
      const outcome = await waitForAbort(extra.signal);
      slowOutcomes.set(key, outcome);
      return { content: [{ type: "text", text: outcome }] };
    },
  );
  server.registerTool(
    PEER_TOOLS.slowStatus.name,
    { description: PEER_TOOLS.slowStatus.description, inputSchema: { key: z.string() } },
    async ({ key }) => ({ content: [{ type: "text", text: slowOutcomes.get(key) ?? "none" }] }),
  );
  server.registerTool(
    PEER_TOOLS.add.name,
    { description: PEER_TOOLS.add.description, inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: addText(a, b) }] }),
  );
  server.registerTool(
    PEER_TOOLS.echo.name,
    { description: PEER_TOOLS.echo.description, inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(PEER_TOOLS.fail.name, { description: PEER_TOOLS.fail.description }, async () => ({
    content: [{ type: "text", text: FAIL_MESSAGE }],
    isError: true,
  }));
  server.registerTool(
    PEER_TOOLS.count.name,
    { description: PEER_TOOLS.count.description, inputSchema: { steps: z.number().int().min(1).max(10) } },
    async ({ steps }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken, progress: step, total: steps },
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return { content: [{ type: "text", text: countText(steps) }] };
    },
  );
  server.registerTool(PEER_TOOLS.ask.name, { description: PEER_TOOLS.ask.description }, async (extra) => {
    // sendRequest rides the originating request's stream, as a related server-to-client request.
    const answer = await extra.sendRequest(
      { method: "elicitation/create", params: structuredClone(ASK_ELICITATION) as never },
      ElicitResultSchema,
    );
    return { content: [{ type: "text", text: askText(String(answer.content?.name)) }] };
  });
  server.registerTool(PEER_TOOLS.touch.name, { description: PEER_TOOLS.touch.description }, async () => {
    server.sendToolListChanged();
    return { content: [{ type: "text", text: "touched" }] };
  });
  server.registerResource(
    STATIC_RESOURCE.name,
    STATIC_RESOURCE.uri,
    { mimeType: STATIC_RESOURCE.mimeType },
    async () => ({
      contents: [{ uri: STATIC_RESOURCE.uri, mimeType: STATIC_RESOURCE.mimeType, text: STATIC_RESOURCE.text }],
    }),
  );
  server.registerResource(
    ITEM_TEMPLATE.name,
    new ResourceTemplate(ITEM_TEMPLATE.uriTemplate, { list: undefined }),
    { mimeType: ITEM_TEMPLATE.mimeType },
    async (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: ITEM_TEMPLATE.mimeType, text: itemText(String(variables.id)) }],
    }),
  );
  server.registerPrompt(
    GREET_PROMPT.name,
    { description: GREET_PROMPT.description, argsSchema: { name: z.string() } },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: greetText(name) } }] }),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

async function serveHttp(): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    try {
      const sessionId = req.headers["mcp-session-id"];
      const body = req.method === "POST" ? await readJson(req) : undefined;
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId !== undefined) {
          res.writeHead(404).end();
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await buildServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  http.listen(0, "127.0.0.1", () => {
    const address = http.address();
    if (address && typeof address === "object") console.log(`LISTENING http://127.0.0.1:${address.port}/mcp`);
  });
}

if (process.argv[2] === "http") {
  await serveHttp();
} else {
  await buildServer().connect(new StdioServerTransport());
}
