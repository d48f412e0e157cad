/**
 * Pieces for attacking the upstream path of a runtime server: a hostile upstream (a real http.Server on
 * 127.0.0.1 that records every request, answers however a test says, and counts the bytes it managed to
 * write), and a spec server built from an in-memory definition, served over real Streamable HTTP.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type McpClient, serveHttp } from "../../runtime/index.ts";
import type { CatalogTemplate, CatalogTool } from "../../runtime/package/catalog-types.ts";
import { createSpecServer, type SpecServerOptions } from "../../runtime/package/spec-server.ts";
import { callUpstream } from "../../runtime/upstream/forward.ts";
import type { UpstreamConfig } from "../../runtime/upstream/types.ts";

export type Seen = { method: string; url: string; path: string; headers: IncomingMessage["headers"]; body: string };
export type Answer = (req: Seen, res: ServerResponse, host: HostileUpstream) => unknown;

export type HostileUpstream = {
  url: string;
  origin: string;
  requests: Seen[];
  /** Body bytes written to responses, as far as the socket accepted them. */
  written: number;
  /** Responses whose connection closed before the whole body was written. */
  closedEarly: number;
  answer: Answer;
  close(): Promise<void>;
};

export async function startHostile(answer: Answer = (_r, res) => res.end("ok")): Promise<HostileUpstream> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? "/";
    const seen = {
      method: req.method ?? "",
      url,
      path: url.split("?")[0],
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    host.requests.push(seen);
    try {
      await host.answer(seen, res, host);
    } catch {
      res.destroy();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const host: HostileUpstream = {
    url: origin,
    origin,
    requests: [],
    written: 0,
    closedEarly: 0,
    answer,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return host;
}

/**
 * Writes `total` bytes of `chunk` repeated, waiting for the socket to drain (so `written` counts what
 * the reader took), and stops when the reader closes the connection.
 */
export async function drip(
  res: ServerResponse,
  host: HostileUpstream,
  total: number,
  chunk: Buffer,
  delayMs = 0,
): Promise<void> {
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  let sent = 0;
  while (sent < total && !closed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
    const more = res.write(piece);
    sent += piece.length;
    host.written += piece.length;
    if (!more) await drained(res);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  }
  if (closed && sent <= total) host.closedEarly++;
  if (!closed) res.end();
}

/** Resolves on "drain" or "close", whichever comes first, leaving no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export type McpUnderTest = { client: McpClient; close(): Promise<void> };

/** A runtime spec server (what a generated package runs) with these tools, on 127.0.0.1, and a client. */
export async function startMcp(
  upstream: UpstreamConfig,
  tools: CatalogTool[],
  options: SpecServerOptions & { templates?: CatalogTemplate[] } = {},
): Promise<McpUnderTest> {
  const { templates = [], ...rest } = options;
  const server = createSpecServer(
    {
      server: { name: "hostile-upstream", version: "1.0.0" },
      upstream,
      callUpstream,
      offers: { tools: true, resources: templates.length > 0 },
      catalog: () => ({ tools, resources: [], resourceTemplates: templates, prompts: [] }),
    },
    { env: {}, ...rest },
  );
  const handle = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  const client = await connect({ url: handle.url }, { requestTimeoutMs: 60_000 });
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

export const tool = (name: string, http: CatalogTool["http"]): CatalogTool => ({
  name,
  inputSchema: { type: "object" },
  http,
});

/** Everything a client could see of a result, as one string to search. */
export const seen = (value: unknown) => JSON.stringify(value);
