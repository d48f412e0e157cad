/**
 * deploy/nginx.conf (issue 18 §2): which calls nginx may resend comes from the tools' annotations, no
 * tool name can write a directive, and nginx drops idle connections before a real server does. (test/scale/nginx-config.scale.ts runs `nginx -t` on it, and
 * test/scale/scale-out.scale.ts runs it in front of real instances and kills one.)
 */
import { get } from "node:http";
import { describe, expect, it } from "vitest";
import { renderNginxConfig, retryKeys, retryPlan } from "../../generator/render/nginx-config.ts";
import { createServer } from "../../runtime/server/server.ts";
import { IDLE_CONNECTION_MS, serveHttp } from "../../runtime/transport/http/server.ts";
import { model, tool } from "./model.ts";

const weatherLike = model({
  tools: [
    tool("get_forecast", { annotations: { readOnlyHint: true } }),
    tool("report_observation", { annotations: { readOnlyHint: false, idempotentHint: false } }),
    tool("reset_station", { annotations: { destructiveHint: true, idempotentHint: false } }),
    tool("put_station", { annotations: { readOnlyHint: false, idempotentHint: true } }),
    tool("plain"),
  ],
});

/** The map's tool entries: "~^tools/call:(a|b)$" keys that select the resending location. */
const retried = (text: string) =>
  [...text.matchAll(/^\s+"~\^tools\/call:\(([^"]+)\)\$" 1;$/gm)].flatMap((m) => m[1].replaceAll("\\.", ".").split("|"));

describe("deploy/nginx.conf", () => {
  const text = renderNginxConfig(weatherLike, "# header");

  it("its instance command uses --session-store only in a package with the redis feature", () => {
    expect(text).toContain("#   node dist/server.js --http --port 3001   (and 3002, 3003; without the redis feature");
    expect(text).not.toContain("--session-store");
    const withRedis = renderNginxConfig(model({ tools: [tool("t")], features: ["redis"] }), "# header");
    expect(withRedis).toContain(
      "#   node dist/server.js --http --port 3001 --session-store redis://127.0.0.1:6379/0   (and 3002, 3003)",
    );
  });

  it("resends only calls of read-only or idempotent tools, and the methods that only read", () => {
    expect(retryPlan(weatherLike)).toEqual({
      retried: ["get_forecast", "put_station"],
      once: ["report_observation", "reset_station", "plain"],
    });
    expect(retried(text)).toEqual(["get_forecast", "put_station"]);
    expect(text).toContain(
      '"~^(ping|server/discover|tools/list|resources/list|resources/templates/list|resources/read|prompts/list|prompts/get|completion/complete|tasks/get):" 1;',
    );
    // Only the resending location may resend a POST already sent; the others never do.
    const nonIdempotent = text
      .split("\n")
      .filter((line) => line.includes("non_idempotent") && !line.trim().startsWith("#"));
    expect(nonIdempotent).toEqual([
      "            proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;",
    ]);
    const retryLocation = text.slice(text.indexOf("location @mcp_retry_safe"), text.indexOf("location @mcp_not_run"));
    expect(retryLocation).toContain("non_idempotent");
  });

  it("answers a call it must not resend with a JSON-RPC 502 saying why", () => {
    const lost = text.slice(text.indexOf("location @mcp_lost"));
    expect(lost).toContain("default_type application/json;");
    const body = /return 502 '([^']+)';/.exec(lost)?.[1] ?? "";
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32603 } });
    expect(JSON.parse(body).error.message).toMatch(/not retried/);
  });

  it("matches the servers: 4 MiB bodies, loopback Host, request ids, streams unbuffered", () => {
    for (const line of [
      "client_max_body_size 4m;",
      "proxy_set_header Host localhost;",
      "proxy_set_header X-Request-Id $mcp_request_id;",
      "proxy_buffering off;",
    ])
      expect(text).toContain(line);
    expect(text.match(/^\s+server 127\.0\.0\.1:300\d max_fails=1 fail_timeout=5s;$/gm)).toHaveLength(3);
  });

  it("drops idle upstream connections before the servers do (a POST on a closing connection is lost)", async () => {
    const seconds = Number(/^\s*keepalive_timeout (\d+)s;$/m.exec(text)?.[1]);
    expect(seconds * 1000).toBeLessThan(IDLE_CONNECTION_MS);
    const handle = await serveHttp(createServer({ name: "t", version: "1" }), { port: 0 });
    try {
      // The server announces its idle timeout on every kept-alive answer (Keep-Alive: timeout=<s>).
      const keepAlive = await new Promise<string>((resolve, reject) =>
        get(`${handle.url.replace(/\/mcp$/, "")}/healthz`, (res) => {
          res.resume();
          resolve(String(res.headers["keep-alive"]));
        }).on("error", reject),
      );
      expect(keepAlive).toBe(`timeout=${IDLE_CONNECTION_MS / 1000}`);
    } finally {
      await handle.close();
    }
  });

  it("routes tools case-sensitively: regex keys (nginx folds the case of plain keys), dots escaped", () => {
    const clash = model({
      tools: [
        tool("purge", { annotations: { readOnlyHint: true } }),
        tool("PURGE"),
        tool("a.b", { annotations: { readOnlyHint: true } }),
      ],
    });
    const config = renderNginxConfig(clash, "# header");
    expect(config).toContain('        "~^tools/call:(purge|a\\.b)$" 1;');
    expect(config).not.toMatch(/^\s+"tools\/call:/m);
    // What nginx's PCRE does with the key, here with JavaScript's equivalent syntax.
    const key = new RegExp(retryKeys(["purge", "a.b"])[0].slice(2, -1));
    expect(["tools/call:purge", "tools/call:a.b"].map((s) => key.test(s))).toEqual([true, true]);
    expect(
      ["tools/call:PURGE", "tools/call:Purge", "tools/call:aXb", "tools/call:purge2"].map((s) => key.test(s)),
    ).toEqual([false, false, false, false]);
  });

  it("splits many tools over keys nginx accepts (a token is at most 4096 bytes)", () => {
    const names = Array.from({ length: 1500 }, (_, i) => `tool_number_${i}_of_a_large_api`);
    const keys = retryKeys(names);
    expect(keys.length).toBeGreaterThan(1);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThan(4096);
    expect(keys.flatMap((k) => k.slice(15, -3).split("|"))).toEqual(names);
  });

  it("leaves out a tool name that could write a directive, rather than quoting it", () => {
    const hostile = model({
      tools: [
        tool('x" 1; } server { listen 1; } map $a $b { "', { annotations: { readOnlyHint: true } }),
        tool("ok", { annotations: { readOnlyHint: true } }),
      ],
    });
    const config = renderNginxConfig(hostile, "# header");
    expect(retried(config)).toEqual(["ok"]);
    expect(config).not.toContain("listen 1;");
  });
});
