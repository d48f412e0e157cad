// The official SDK v2 McpServer exposing the shared peer fixture. One factory serves both eras:
// over stdio via serveStdio, over HTTP via createMcpHandler (a fetch-style handler, bridged to
// node:http here because @modelcontextprotocol/node is not a dependency). Usage:
//   tsx sdk-v2-server.ts stdio [--modern-only] [--delay <ms>]
//   tsx sdk-v2-server.ts http      (prints "LISTENING <url>" once bound to 127.0.0.1)
// --modern-only refuses 2025-era openings (-32022); --delay holds stdin unread for a while, like a
// server that is slow to start.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  type McpRequestContext,
  McpServer,
  ResourceTemplate,
  type ServerNotifier,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  ADD_INPUT_SCHEMA,
  ASK_ELICITATION,
  addText,
  askText,
  COUNT_INPUT_SCHEMA,
  countText,
  ECHO_INPUT_SCHEMA,
  FAIL_MESSAGE,
  GREET_PROMPT,
  greetText,
  ITEM_TEMPLATE,
  itemText,
  KEY_INPUT_SCHEMA,
  PEER_SERVER_INFO,
  PEER_TOOLS,
  STATIC_RESOURCE,
  waitForAbort,
} from "../peer-fixture.ts";

// JSON Schemas wrapped for the SDK rather than zod: the hoisted root zod may be v3, which v2 rejects.
function json<T>(schema: object) {
  return fromJsonSchema<T>(structuredClone(schema) as never);
}

// The factory learns the era: v2 has no server-to-client requests at 2026-07-28, where the "ask"
// tool must answer with an MRTR input_required result instead of calling elicitInput.
// Shared by every per-request or per-connection instance of this process, keyed by the caller's key.
const slowOutcomes = new Map<string, string>();
// Over HTTP, 2026-era change events go through the handler's bus; stdio instances announce their own.
let httpNotifier: ServerNotifier | undefined;

function buildServer(era: McpRequestContext["era"]): McpServer {
  const server = new McpServer({ ...PEER_SERVER_INFO });
  server.registerTool(
    PEER_TOOLS.slow.name,
    { description: PEER_TOOLS.slow.description, inputSchema: json<{ key: string }>(KEY_INPUT_SCHEMA) },
    async ({ key }, ctx) => {
      slowOutcomes.set(key, "running");
      const outcome = await waitForAbort(ctx.mcpReq.signal);
      slowOutcomes.set(key, outcome);
      return { content: [{ type: "text", text: outcome }] };
    },
  );
  server.registerTool(
    PEER_TOOLS.slowStatus.name,
    { description: PEER_TOOLS.slowStatus.description, inputSchema: json<{ key: string }>(KEY_INPUT_SCHEMA) },
    async ({ key }) => ({ content: [{ type: "text", text: slowOutcomes.get(key) ?? "none" }] }),
  );
  server.registerTool(
    PEER_TOOLS.add.name,
    { description: PEER_TOOLS.add.description, inputSchema: json<{ a: number; b: number }>(ADD_INPUT_SCHEMA) },
    async ({ a, b }) => ({ content: [{ type: "text", text: addText(a, b) }] }),
  );
  server.registerTool(
    PEER_TOOLS.echo.name,
    { description: PEER_TOOLS.echo.description, inputSchema: json<{ text: string }>(ECHO_INPUT_SCHEMA) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(PEER_TOOLS.fail.name, { description: PEER_TOOLS.fail.description }, async () => ({
    content: [{ type: "text", text: FAIL_MESSAGE }],
    isError: true,
  }));
  server.registerTool(
    PEER_TOOLS.count.name,
    {
      description: PEER_TOOLS.count.description,
      inputSchema: json<{ steps: number }>(COUNT_INPUT_SCHEMA),
    },
    async ({ steps }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken, progress: step, total: steps },
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return { content: [{ type: "text", text: countText(steps) }] };
    },
  );
  server.registerTool(PEER_TOOLS.ask.name, { description: PEER_TOOLS.ask.description }, async (ctx) => {
    if (era === "modern") {
      const answer = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, "name");
      if (answer) return { content: [{ type: "text", text: askText(answer.name) }] };
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({
            message: ASK_ELICITATION.message,
            requestedSchema: structuredClone(ASK_ELICITATION.requestedSchema) as never,
          }),
        },
      });
    }
    const answer = await ctx.mcpReq.elicitInput(structuredClone(ASK_ELICITATION) as never);
    return { content: [{ type: "text", text: askText(String(answer.content?.name)) }] };
  });
  server.registerTool(PEER_TOOLS.touch.name, { description: PEER_TOOLS.touch.description }, async () => {
    if (httpNotifier) httpNotifier.toolsChanged();
    else server.sendToolListChanged();
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
    {
      description: GREET_PROMPT.description,
      argsSchema: json<{ name: string }>({
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      }),
    },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: greetText(name) } }] }),
  );
  return server;
}

async function toWebRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(key, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
  // A client that goes away must abort the request: at 2026-07-28 that is how a call is cancelled.
  const disconnected = new AbortController();
  res.on("close", () => {
    if (!res.writableEnded) disconnected.abort();
  });
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
    signal: disconnected.signal,
  });
}

async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (!response.body) {
    res.end();
    return;
  }
  // Stream chunk by chunk so SSE responses reach the client as they are produced.
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

function serveHttp(): void {
  const handler = createMcpHandler(({ era }) => buildServer(era));
  httpNotifier = handler.notify;
  const http = createServer(async (req, res) => {
    try {
      await writeWebResponse(await handler.fetch(await toWebRequest(req, res)), res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  http.listen(0, "127.0.0.1", () => {
    const address = http.address();
    if (address && typeof address === "object") console.log(`LISTENING http://127.0.0.1:${address.port}/mcp`);
  });
}

const args = process.argv.slice(2);
if (args[0] === "http") {
  serveHttp();
} else {
  const delayIndex = args.indexOf("--delay");
  if (delayIndex >= 0) await new Promise((resolve) => setTimeout(resolve, Number(args[delayIndex + 1])));
  serveStdio(({ era }) => buildServer(era), { legacy: args.includes("--modern-only") ? "reject" : "serve" });
}
