// The HTTP floor: a bare node:http handler that parses each POSTed JSON-RPC
// message and answers it with an echo result (no MCP, no sessions, no validation).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { httpPort } from "./echo-args.ts";

const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    const message = JSON.parse(body);
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result =
      message.method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } }
        : { content: [{ type: "text", text: message.params?.arguments?.text ?? "" }] };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  });
});
server.listen(httpPort() ?? 0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stderr.write(`raw-http-echo listening on http://127.0.0.1:${port}/mcp\n`);
});
process.on("SIGTERM", () => process.exit(0));
