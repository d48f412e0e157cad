// --metrics-port: the metrics on a listener of their own, for a scraper on the operator's network only: GET and
// HEAD /metrics, nothing else, no token. It closes with the server.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { log } from "../../server/log.ts";
import type { McpServer } from "../../server/server.ts";

export async function serveMetricsPort(
  server: McpServer,
  serve: (res: ServerResponse) => Promise<void>,
  port: number,
  host: string,
): Promise<void> {
  const listener = createServer((req, res) => {
    const path =
      URL.canParse(req.url ?? "/", "http://localhost") && new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/metrics") res.writeHead(404).end();
    else if (req.method !== "GET" && req.method !== "HEAD") res.writeHead(405, { Allow: "GET, HEAD" }).end();
    else void serve(res);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", (error) => reject(new Error(`--metrics-port ${port}: ${error.message}`)));
    listener.listen(port, host, resolve);
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${(listener.address() as AddressInfo).port}/metrics`;
  log("info", `metrics at ${url}`, { url });
  server.onClose(() => {
    listener.close();
    listener.closeAllConnections();
  });
}
