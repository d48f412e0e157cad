// --metrics-port: the metrics on a listener of their own, for a scraper on the operator's network only: GET and
// HEAD /metrics, nothing else, no token. It closes with the server.
import { createServer, type ServerResponse } from "node:http";
import { log } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";
import { pathOf } from "../../transport/http/routes.ts";
import { listen } from "../../transport/http/server.ts";

export async function serveMetricsPort(
  server: McpServer,
  serve: (res: ServerResponse) => Promise<void>,
  port: number,
  host: string,
): Promise<void> {
  const listener = createServer((req, res) => {
    if (pathOf(req.url ?? "/") !== "/metrics") res.writeHead(404).end();
    else if (req.method !== "GET" && req.method !== "HEAD") res.writeHead(405, { Allow: "GET, HEAD" }).end();
    else void serve(res);
  });
  const bound = await listen(listener, port, host).catch((error: Error) => {
    throw new Error(`--metrics-port ${port}: ${error.message}`);
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${bound}/metrics`;
  log("info", `metrics at ${url}`, { url });
  server.onClose(() => {
    listener.close();
    listener.closeAllConnections();
  });
}
