// Security defaults of serveHttp: loopback bind, Origin/Host checks, bearer token, body limit.
import { request as httpRequest } from "node:http";
import { connect as connectSocket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../../../runtime/index.ts";
import { buildDemoServer } from "../../fixtures/demo-server.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

let open: HttpServerHandle;
let guarded: HttpServerHandle;
const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } };

beforeAll(async () => {
  open = await serveHttp(buildDemoServer(), { allowedOrigins: ["https://app.example"] });
  guarded = await serveHttp(buildDemoServer(), { bearerToken: "s3cret", maxBodyBytes: 1024 });
});

afterAll(async () => {
  await open.close();
  await guarded.close();
});

describe("HTTP security defaults", () => {
  test("binds to 127.0.0.1 on an ephemeral port by default", () => {
    expect(open.host).toBe("127.0.0.1");
    expect(open.url).toBe(`http://127.0.0.1:${open.port}/mcp`);
  });

  test.each([
    [undefined, 200],
    ["http://localhost:5173", 200],
    ["http://127.0.0.1", 200],
    ["https://app.example", 200],
    ["https://evil.example", 403],
    ["null", 403],
  ])("Origin %s -> %i", async (origin, status) => {
    const headers: Record<string, string> = modernHeaders("tools/list");
    if (origin !== undefined) headers.Origin = origin;
    const response = await rawPost(open.url, listTools, headers);
    expect(response.status).toBe(status);
  });

  test("a foreign Host header (DNS rebinding) is 403", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: open.port,
          path: "/mcp",
          method: "POST",
          headers: { Host: "attacker.example", "Content-Type": "application/json" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(listTools));
    });
    expect(status).toBe(403);
  });

  test("bearer token: 401 without or with a wrong token, 200 with the right one", async () => {
    const none = await rawPost(guarded.url, listTools, modernHeaders("tools/list"));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await rawPost(guarded.url, listTools, {
      ...modernHeaders("tools/list"),
      Authorization: "Bearer nope",
    });
    expect(wrong.status).toBe(401);
    const right = await rawPost(guarded.url, listTools, {
      ...modernHeaders("tools/list"),
      Authorization: "Bearer s3cret",
    });
    expect(right.status).toBe(200);
  });

  test("bodies over the limit are 413", async () => {
    const big = { ...listTools, params: { _meta: modernMeta(), padding: "x".repeat(2048) } };
    const response = await rawPost(guarded.url, big, {
      ...modernHeaders("tools/list"),
      Authorization: "Bearer s3cret",
    });
    expect(response.status).toBe(413);
  });

  test("wrong content type is 415 and other paths are 404", async () => {
    const response = await fetch(open.url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(response.status).toBe(415);
    const other = await fetch(open.url.replace("/mcp", "/other"), { method: "POST" });
    expect(other.status).toBe(404);
  });

  test("a client that never finishes its headers is cut off (header timeout)", async () => {
    const slow = await serveHttp(buildDemoServer(), { headersTimeoutMs: 200 });
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = connectSocket(slow.port, "127.0.0.1", () =>
          socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
        );
        let received = "";
        socket.on("data", (chunk) => {
          received += chunk;
        });
        socket.on("close", () => resolve(received));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await slow.close();
    }
  });

  test("a body that never arrives in full is cut off (request timeout)", async () => {
    const slow = await serveHttp(buildDemoServer(), { headersTimeoutMs: 200, requestTimeoutMs: 300 });
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = connectSocket(slow.port, "127.0.0.1", () =>
          socket.write(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
          ),
        );
        let received = "";
        socket.on("data", (chunk) => {
          received += chunk;
        });
        socket.on("close", () => resolve(received));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await slow.close();
    }
  });
});
