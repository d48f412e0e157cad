// A proxy in front of Prism that answers each (method, URL, body) the same every time: Prism's dynamic
// answers change from one request to the next, and the code-mode bench must show the three serving
// modes the same upstream data. Listens on 127.0.0.1, a free port.
//
// Prism's generated lists hold one item, where a real repository answers a page of them; with
// `fillPages`, a JSON list answer to a GET is filled up to the page the request asks for (`per_page`,
// else 10, at most 30) with copies of its items numbered on (`id`, `number`), so each step of a task
// meets as many items as a real page would give it.
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Cached = { status: number; type: string; body: Buffer };

export async function startCachingProxy(
  target: string,
  options: { fillPages?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
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
      }).then(async (response) => {
        const type = response.headers.get("content-type") ?? "application/json";
        let sent: Buffer = Buffer.from(await response.arrayBuffer());
        if (options.fillPages && req.method === "GET" && response.ok && /json/.test(type)) {
          sent = filledPage(sent, new URL(req.url ?? "/", target));
        }
        return { status: response.status, type, body: sent };
      });
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

/** A JSON list answer filled up to its page size with renumbered copies of its items; anything else as is. */
function filledPage(body: Buffer, url: URL): Buffer {
  let list: unknown;
  try {
    list = JSON.parse(body.toString("utf8"));
  } catch {
    return body;
  }
  if (!Array.isArray(list) || list.length === 0) return body;
  const size = Math.min(30, Number(url.searchParams.get("per_page")) || 10);
  const filled = Array.from({ length: Math.max(size, list.length) }, (_, i) => {
    if (i < list.length) return list[i];
    const copy = structuredClone(list[i % list.length]);
    if (copy && typeof copy === "object") {
      for (const key of ["id", "number"]) if (typeof copy[key] === "number") copy[key] += i;
    }
    return copy;
  });
  return Buffer.from(JSON.stringify(filled));
}
