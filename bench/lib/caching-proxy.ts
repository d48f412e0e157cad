// A proxy in front of Prism that answers each (method, URL, body) the same every time: Prism's dynamic
// answers change from one request to the next, and the code-mode bench must show the three serving
// modes the same upstream data. Listens on 127.0.0.1, a free port.
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Cached = { status: number; type: string; body: Buffer };

export async function startCachingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const cache = new Map<string, Promise<Cached>>();
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const key = `${req.method} ${req.url} ${body.toString("base64")}`;
    let answer = cache.get(key);
    if (!answer) {
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "accept", "authorization"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      answer = fetch(new URL(req.url ?? "/", target), {
        method: req.method ?? "GET",
        headers,
        ...(body.length > 0 ? { body } : {}),
      }).then(async (response) => ({
        status: response.status,
        type: response.headers.get("content-type") ?? "application/json",
        body: Buffer.from(await response.arrayBuffer()),
      }));
      cache.set(key, answer);
    }
    const { status, type, body: sent } = await answer;
    res.writeHead(status, { "content-type": type });
    res.end(sent);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
