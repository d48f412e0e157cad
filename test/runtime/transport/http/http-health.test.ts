// GET /healthz (liveness) and /readyz (readiness) of serveHttp, over real HTTP on 127.0.0.1.
import { describe, expect, test } from "vitest";
import { serveHttp } from "../../../../runtime/index.ts";
import { buildDemoServer } from "../../fixtures/demo-server.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";

const origin = (url: string) => new URL(url).origin;

describe("health endpoints", () => {
  test("/healthz and /readyz answer 200 without the bearer token; other methods 405", async () => {
    const handle = await serveHttp(buildDemoServer(), { bearerToken: "s3cret" });
    try {
      const health = await fetch(`${origin(handle.url)}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
      expect(health.headers.get("cache-control")).toBe("no-store");
      const ready = await fetch(`${origin(handle.url)}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
      const head = await fetch(`${origin(handle.url)}/readyz`, { method: "HEAD" });
      expect(head.status).toBe(200);
      const post = await fetch(`${origin(handle.url)}/healthz`, { method: "POST", body: "{}" });
      expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
      // The MCP endpoint still wants the token; other paths are still 404.
      expect((await fetch(handle.url, { method: "POST", body: "{}" })).status).toBe(401);
      expect((await fetch(`${origin(handle.url)}/healthz/x`)).status).toBe(404);
    } finally {
      await handle.close();
    }
  });

  test("while closing, /readyz answers 503 and /healthz 200, and MCP requests are still served", async () => {
    const handle = await serveHttp(buildDemoServer(), { shutdownGraceMs: 1_000 });
    const closed = handle.close();
    try {
      const ready = await fetch(`${origin(handle.url)}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: "closing" }]);
      expect((await fetch(`${origin(handle.url)}/healthz`)).status).toBe(200);
      const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } };
      expect((await rawPost(handle.url, list, modernHeaders("tools/list"))).status).toBe(200);
    } finally {
      await closed;
    }
    await expect(fetch(`${origin(handle.url)}/healthz`)).rejects.toThrow();
  });
});
