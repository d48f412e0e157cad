/**
 * Secrets from the environment (the upstream token, an API key, the server's own bearer token) never
 * show up where a client or a log reader could see them: server stderr, tool results, JSON-RPC errors,
 * HTTP answers, the generated files, or the Mcp-Param-* headers a client sends. A generated server runs
 * against an upstream that fails in every way it can, including one that reflects the request back.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { connect, type McpClient } from "../../runtime/index.ts";
import { scratchDir, startUpstream } from "../generate/support.ts";
import { startHttpProcess } from "./wire.ts";

const UPSTREAM_TOKEN = "upstream-SECRET-7f3a9c1e55";
const API_KEY = "apikey-SECRET+0b8d/2e4f=66"; // characters that change when URL-encoded
const BASIC = "user:basic-SECRET-91ce7d0a42";
const SERVER_TOKEN = "server-SECRET-c4e1a2b3d9";
const SECRETS = [UPSTREAM_TOKEN, API_KEY, BASIC, SERVER_TOKEN];
/** Secrets also leak encoded: base64 (basic auth) and URL-encoded forms are searched too. */
const FORMS = SECRETS.flatMap((s) => [s, Buffer.from(s).toString("base64"), encodeURIComponent(s)]);

function tools(prefix: string) {
  return [
    {
      name: `${prefix}_item`,
      description: "Reads an item; the id also travels as a header.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", "x-mcp-header": "ItemId" }, token: { type: "string" } },
        required: ["id"],
      },
      http: { method: "GET", path: "/items/{id}" },
    },
    { name: `${prefix}_reflect`, inputSchema: { type: "object" }, http: { method: "GET", path: "/reflect" } },
    { name: `${prefix}_fail`, inputSchema: { type: "object" }, http: { method: "POST", path: "/fail" } },
    { name: `${prefix}_denied`, inputSchema: { type: "object" }, http: { method: "GET", path: "/denied" } },
  ];
}

// Short, so calls to the silent upstream end quickly; long enough that a loaded CI machine still reaches the
// live upstream (at 300 ms a busy run once timed out before the request arrived).
const UPSTREAM_TIMEOUT_MS = 1_000;

const specs = {
  bearer: {
    upstream: {
      baseUrl: "http://127.0.0.1:1",
      auth: { type: "bearer", env: "SECRET_UPSTREAM_TOKEN" },
      timeoutMs: UPSTREAM_TIMEOUT_MS,
    },
  },
  basic: {
    upstream: {
      baseUrl: "http://127.0.0.1:1",
      auth: { type: "basic", env: "SECRET_BASIC" },
      timeoutMs: UPSTREAM_TIMEOUT_MS,
    },
  },
  query: {
    upstream: {
      baseUrl: "http://127.0.0.1:1",
      auth: { type: "apiKey", in: "query", name: "api_key", env: "SECRET_API_KEY" },
      timeoutMs: UPSTREAM_TIMEOUT_MS,
    },
  },
};

describe("secrets never leak", () => {
  const dir = scratchDir("secrets");
  const leaks: Array<{ where: string; text: string }> = [];
  const seen = (where: string, value: unknown) =>
    leaks.push({ where, text: typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)) });
  const env = {
    SECRET_UPSTREAM_TOKEN: UPSTREAM_TOKEN,
    SECRET_API_KEY: API_KEY,
    SECRET_BASIC: BASIC,
    MCP_HTTP_TOKEN: SERVER_TOKEN,
  };
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const servers: Array<Awaited<ReturnType<typeof startHttpProcess>> & { prefix: string }> = [];
  const proxies: Server[] = [];
  const clientHeaders: Array<Record<string, unknown>> = [];

  /** A pass-through proxy between client and server that records every request's headers. */
  async function recordingProxy(target: string): Promise<string> {
    const proxy = createServer((req, res) => {
      clientHeaders.push({ ...req.headers });
      const forward = request(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    proxy.listen(0, "127.0.0.1");
    await new Promise((resolve) => proxy.once("listening", resolve));
    proxies.push(proxy);
    return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  }

  beforeAll(async () => {
    upstream = await startUpstream({
      "GET /items/*": () => ({ status: 404, json: { error: "no such item" } }),
      // A hostile upstream: answers with everything it was sent, credentials included.
      "GET /reflect": (r) => ({ status: 500, json: { youSent: { headers: r.headers, query: r.query.toString() } } }),
      "POST /fail": () => ({ status: 500, text: "internal error" }),
      "GET /denied": () => ({ status: 401, text: "bad credentials" }),
    });
    // An upstream that accepts the connection and never answers: every call runs into the timeout.
    const blackhole = createServer(() => {});
    blackhole.listen(0, "127.0.0.1");
    await new Promise((resolve) => blackhole.once("listening", resolve));
    proxies.push(blackhole);
    const silent = `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`;
    for (const [name, extra] of Object.entries(specs)) {
      writeFileSync(
        join(dir, `${name}.yaml`),
        stringify({ server: { name, version: "1.0.0" }, ...extra, tools: tools(name) }),
      );
      const result = await generate(join(dir, `${name}.yaml`), join(dir, name));
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      // The failing upstream, a silent one, and one that refuses connections.
      for (const baseUrl of [upstream.url, silent, "http://127.0.0.1:1"]) {
        const server = await startHttpProcess(
          join(dir, name, "src/server.ts"),
          env,
          [],
          ["--port", "0", "--base-url", baseUrl],
        );
        servers.push({ ...server, prefix: name });
      }
    }
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const proxy of proxies) proxy.closeAllConnections?.();
    for (const proxy of proxies) proxy.close();
    await upstream?.close();
  });

  it("the upstream really receives the credentials (so the scans below mean something)", async () => {
    const client = await connect({ url: await recordingProxy(servers[0].url), bearerToken: SERVER_TOKEN });
    await client.callTool("bearer_fail", {});
    await client.close();
    expect(upstream.requests.some((r) => r.headers.authorization === `Bearer ${UPSTREAM_TOKEN}`)).toBe(true);
  });

  it("tool results, errors, HTTP answers and the server's stderr hold no secret", async () => {
    for (const server of servers) {
      const prefix = server.prefix;
      const client: McpClient = await connect({ url: await recordingProxy(server.url), bearerToken: SERVER_TOKEN });
      for (const tool of tools(prefix)) {
        const args = tool.name.endsWith("_item") ? { id: "42", token: "harmless" } : {};
        try {
          seen(`${tool.name} result`, await client.callTool(tool.name, args, { timeoutMs: 5_000 }));
        } catch (error) {
          seen(`${tool.name} error`, { message: (error as Error).message, ...(error as object) });
        }
      }
      await client.close();
      // A 2025-era client with logging at debug: every log notification the server sends is scanned too.
      const legacy = await connect(
        { url: await recordingProxy(server.url), bearerToken: SERVER_TOKEN },
        { protocolVersion: "2025-11-25" },
      );
      legacy.onNotification((message) => seen("notification", message));
      await legacy.setLogLevel("debug");
      for (const tool of tools(prefix)) {
        try {
          seen(`${tool.name} result (2025)`, await legacy.callTool(tool.name, { id: "7" }, { timeoutMs: 5_000 }));
        } catch (error) {
          seen(`${tool.name} error (2025)`, { message: (error as Error).message, ...(error as object) });
        }
      }
      await legacy.close();
      // Refused clients: no token, a wrong one.
      for (const authorization of [undefined, `Bearer ${SERVER_TOKEN}x`, "Bearer wrong"]) {
        const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
        if (authorization) headers.authorization = authorization;
        const response = await fetch(server.url, { method: "POST", headers, body: "{}" });
        seen("401 answer", { status: response.status, headers: [...response.headers], body: await response.text() });
      }
    }
    for (const server of servers) seen("server stderr", server.stderr());
    expect(leaks.length).toBeGreaterThan(50);
    expect(findLeaks(SECRETS)).toEqual([]);
  }, 60_000);

  // An upstream that reflects the request would hand back the base64 of basic credentials and the
  // URL-encoded form of a query API key: redacted() removes those forms too.
  it("encoded forms of a secret (base64, URL-encoded) are redacted too", () => {
    expect(findLeaks(FORMS)).toEqual([]);
  });

  it("the Mcp-Param-* headers clients send hold no secret", () => {
    leaks.length = 0;
    const params = clientHeaders.flatMap((h) => Object.entries(h).filter(([k]) => k.startsWith("mcp-param-")));
    expect(params.length).toBeGreaterThan(0);
    for (const [name, value] of params) seen(`client header ${name}`, value);
    expect(findLeaks()).toEqual([]);
  });

  it("the generated packages (docs, code, catalog) hold no secret", () => {
    leaks.length = 0;
    for (const name of Object.keys(specs)) {
      for (const file of listFiles(join(dir, name))) seen(file, readFileSync(file, "utf8"));
    }
    expect(findLeaks()).toEqual([]);
  });

  function findLeaks(forms = FORMS) {
    return leaks.flatMap(({ where, text }) =>
      forms.filter((form) => text.includes(form)).map((form) => `${where}: contains ${form}: ${text.slice(0, 400)}`),
    );
  }
});

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
