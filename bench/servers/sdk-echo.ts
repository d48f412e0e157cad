// The peer: the official SDK v1 McpServer with the same echo tool (zod input
// schema, as SDK v1 users write it). Over HTTP it runs the SDK's stateful
// Streamable HTTP transport with JSON responses (its fastest setting), one
// transport + server per session as the SDK's own examples do.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { httpPort } from "./echo-args.ts";

function echoServer(): McpServer {
  const server = new McpServer({ name: "sdk-echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the text it was given.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

const port = httpPort();
if (port === undefined) {
  await echoServer().connect(new StdioServerTransport());
} else {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const sessionId = req.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          if (transport) transports.set(id, transport);
        },
      });
      await echoServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(port, "127.0.0.1", () => {
    const { port: actual } = http.address() as AddressInfo;
    process.stderr.write(`sdk-echo listening on http://127.0.0.1:${actual}/mcp\n`);
  });
  process.on("SIGTERM", () => process.exit(0));
}
