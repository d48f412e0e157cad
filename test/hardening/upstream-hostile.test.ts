/**
 * Issue 11 items 3-7 (and issue 12's "fetch failed"): a runtime server, over real Streamable HTTP, in
 * front of a hostile upstream on 127.0.0.1 that records what reaches it. Huge bodies are cut without
 * being read whole; credentials never follow a redirect to another origin and never come back in a
 * result; path parameters cannot leave their segment; cookie parameters cannot add cookies.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generate } from "../../generator/index.ts";
import { connect } from "../../runtime/index.ts";
import type { HttpBinding } from "../../runtime/package/catalog-types.ts";
import { REDACTED } from "../../runtime/upstream/response.ts";
import type { UpstreamConfig } from "../../runtime/upstream/types.ts";
import { ROOT, scratchDir, startHttpProcess } from "../generate/support.ts";
import {
  drip,
  type HostileUpstream,
  type McpUnderTest,
  seen,
  startHostile,
  startMcp,
  tool,
} from "./hostile-upstream.ts";

const KEY = "key-SECRET+7f3a/9c1e=55"; // URL-encoding changes it
const TOKEN = "tok-SECRET-0b8d2e4f66";
const BASIC = "alice:pw-SECRET-91ce7d0a";
const MB = 1024 * 1024;

const open: Array<HostileUpstream | McpUnderTest> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});
afterAll(async () => {
  for (const thing of open.splice(0)) await thing.close();
});
async function hostile(...args: Parameters<typeof startHostile>) {
  const host = await startHostile(...args);
  open.push(host);
  return host;
}
async function mcp(...args: Parameters<typeof startMcp>) {
  const server = await startMcp(...args);
  open.push(server);
  return server;
}
const text = (result: { content?: unknown[] }) =>
  (result.content ?? []).map((c) => (c as { text?: string }).text ?? "").join("\n");

describe("item 3: upstream bodies are streamed and cut at the cap", () => {
  it("a 200 MB text body is cut at 1,000,000 characters with a note, and the upstream sees the connection closed early", async () => {
    const host = await hostile((_r, res, h) => {
      res.writeHead(200, { "content-type": "text/plain" });
      return drip(res, h, 200 * MB, Buffer.alloc(64 * 1024, "a"));
    });
    // The response budget (--max-response-tokens) would cut the million characters again: this test is the body cap's.
    const { client } = await mcp({ baseUrl: host.url }, [tool("big", { method: "GET", path: "/big" })], {
      maxResponseTokens: 2_000_000,
    });
    const result = await client.callTool("big", {});
    const out = text(result);
    expect(out.startsWith("a".repeat(1_000_000))).toBe(true);
    expect(out).toMatch(/\[cut: the upstream API's answer is longer than 1000000 characters/);
    expect(out.length).toBeLessThan(1_000_300);
    // Read whole, all 200 MB would have gone through the socket; cut, only the cap plus what the
    // socket buffers held (a few MB) did. A bound in bytes, not RSS, holds on a busy machine.
    await expect.poll(() => host.closedEarly, { timeout: 10_000 }).toBe(1);
    expect(host.written).toBeLessThan(24 * MB);
  }, 60_000);

  it("a cut JSON body is not structuredContent: an isError result carries the text and says why", async () => {
    const host = await hostile(async (_r, res, h) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items":[');
      await drip(res, h, 200 * MB, Buffer.from('{"n":1},'.repeat(8192)));
    });
    const { client } = await mcp({ baseUrl: host.url }, [tool("json", { method: "GET", path: "/json" })]);
    const result = await client.callTool("json", {});
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/The answer was JSON; it is sent as text, not structuredContent/);
    expect(text(result)).toContain('{"items":[{"n":1},');
    await expect.poll(() => host.closedEarly, { timeout: 10_000 }).toBe(1);
    expect(host.written).toBeLessThan(24 * MB);
  }, 60_000);

  it("the cap is configurable (maxUpstreamBody, the --max-upstream-body flag)", async () => {
    const host = await hostile((_r, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("é".repeat(5000));
    });
    const { client } = await mcp({ baseUrl: host.url }, [tool("t", { method: "GET", path: "/t" })], {
      maxUpstreamBody: 100,
    });
    const out = text(await client.callTool("t", {}));
    expect(out).toMatch(/^é{100}\n\[cut: the upstream API's answer is longer than 100 characters/);
  });
});

describe("item 3: a slow-dripping body cannot hold a call open", () => {
  it("a body that stalls after its first bytes ends at the timeout, and the connection is closed", async () => {
    const host = await hostile((_r, res, h) => {
      res.writeHead(200, { "content-type": "text/plain" });
      return drip(res, h, 10 * MB, Buffer.from("drip\n"), 200);
    });
    const { client } = await mcp({ baseUrl: host.url, timeoutMs: 500 }, [tool("slow", { method: "GET", path: "/s" })]);
    const started = Date.now();
    const result = await client.callTool("slow", {});
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/failed: no answer within 500 ms/);
    await expect.poll(() => host.closedEarly, { timeout: 5_000 }).toBe(1);
  });
});

describe("item 4: credentials never follow a redirect to another origin", () => {
  // What a spec's `upstream.auth: { type: apiKey, in: header, name: x-api-key, env: KEY }` generates.
  const keyed = (baseUrl: string): UpstreamConfig => ({
    baseUrl,
    securitySchemes: [{ id: "upstream.auth", type: "apiKey", in: "header", name: "x-api-key", env: "KEY" }],
  });
  const keyedTool = (name: string, binding: HttpBinding) => tool(name, { ...binding, security: [["upstream.auth"]] });

  it("a 302 to another origin is not followed: the other host gets nothing, the result names the target", async () => {
    const other = await hostile();
    const host = await hostile((_r, res) => {
      res.writeHead(302, { location: `${other.url}/steal?token=abc` });
      res.end();
    });
    const { client } = await mcp(keyed(host.url), [keyedTool("go", { method: "GET", path: "/go" })], {
      env: { KEY },
    });
    const result = await client.callTool("go", {});
    expect(host.requests[0].headers["x-api-key"]).toBe(KEY);
    expect(other.requests).toEqual([]);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(`redirected to another origin, ${other.url}/steal`);
    expect(text(result)).not.toContain("token=abc");
  });

  it("same-origin redirects are followed with the credentials; 303 turns into GET, 307 keeps method and body", async () => {
    const host = await hostile((r, res) => {
      if (r.path === "/see-other") res.writeHead(303, { location: "/done" }).end();
      else if (r.path === "/temporary") res.writeHead(307, { location: "/done" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: r.method }));
    });
    const { client } = await mcp(
      keyed(host.url),
      [
        keyedTool("see", { method: "POST", path: "/see-other" }),
        keyedTool("temp", { method: "POST", path: "/temporary" }),
      ],
      { env: { KEY } },
    );
    expect((await client.callTool("see", { a: 1 })).structuredContent).toEqual({ method: "GET" });
    expect((await client.callTool("temp", { a: 1 })).structuredContent).toEqual({ method: "POST" });
    const done = host.requests.filter((r) => r.path === "/done");
    expect(done.map((r) => [r.method, r.body, r.headers["x-api-key"]])).toEqual([
      ["GET", "", KEY],
      ["POST", '{"a":1}', KEY],
    ]);
  });

  it("a redirect loop stops after the maximum (default 5) with an error; maxRedirects changes it", async () => {
    const host = await hostile((_r, res) => res.writeHead(302, { location: "/loop" }).end());
    const { client } = await mcp({ baseUrl: host.url }, [tool("loop", { method: "GET", path: "/loop" })]);
    const result = await client.callTool("loop", {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/more than 5 redirects/);
    expect(host.requests.length).toBe(6);
    const two = await mcp({ baseUrl: host.url }, [tool("loop", { method: "GET", path: "/loop" })], {
      maxRedirects: 2,
    });
    expect(text(await two.client.callTool("loop", {}))).toMatch(/more than 2 redirects/);
  });
});

describe("item 4 (OAuth2): the client secret never follows a token URL's redirect", () => {
  it("a 307 from the token URL to another origin is not followed", async () => {
    const other = await hostile();
    const tokens = await hostile((_r, res) => res.writeHead(307, { location: `${other.url}/token` }).end());
    const api = await hostile();
    const { client } = await mcp(
      {
        baseUrl: api.url,
        securitySchemes: [
          { id: "o", type: "oauth2", tokenUrl: `${tokens.url}/token`, clientIdEnv: "ID", clientSecretEnv: "SECRET" },
        ],
      },
      [tool("x", { method: "GET", path: "/x", parameters: [], security: [["o"]] })],
      { env: { ID: "client-id", SECRET: "client-SECRET-55aa" } },
    );
    const result = await client.callTool("x", {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/OAuth2 token request to .*\/token failed: status 307 \(redirects are not followed\)/);
    expect(tokens.requests.length).toBe(1);
    expect(other.requests).toEqual([]);
    expect(api.requests).toEqual([]);
  });
});

describe("item 5: a path parameter stays inside its segment", () => {
  it("'..' and '.' are refused before any request; '/', '?', '#', '%' are encoded inside the segment", async () => {
    const host = await hostile((r, res) => res.end(r.path));
    const { client } = await mcp({ baseUrl: `${host.url}/v1` }, [
      tool("forecast", { method: "GET", path: "/forecast/{city}" }),
      tool("pair", { method: "GET", path: "/items/{a}/{b}" }),
      tool("styled", {
        method: "GET",
        path: "/items/{id}",
        parameters: [{ name: "id", in: "path", style: "label" }],
      }),
    ]);
    for (const [name, args] of [
      ["forecast", { city: ".." }],
      ["forecast", { city: "." }],
      ["pair", { a: "..", b: ".." }],
      ["styled", { id: "." }], // label style makes it ".."
    ] as const) {
      const result = await client.callTool(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(result)).toMatch(/path parameter '(city|a|id)'/);
    }
    expect(host.requests).toEqual([]);
    const result = await client.callTool("forecast", { city: "a/b?c#d%e" });
    expect(text(result)).toBe("/v1/forecast/a%2Fb%3Fc%23d%25e");
  });

  it("control characters in a path parameter are refused", async () => {
    const host = await hostile((r, res) => res.end(r.path));
    const { client } = await mcp({ baseUrl: host.url }, [tool("f", { method: "GET", path: "/f/{city}" })]);
    const result = await client.callTool("f", { city: "a\r\nb" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/path parameter 'city' contains a control character/);
    expect(host.requests).toEqual([]);
  });

  it("resource-template variables bound to http paths follow the same rule", async () => {
    const host = await hostile((r, res) => res.end(r.path));
    const { client } = await mcp({ baseUrl: `${host.url}/v1` }, [], {
      templates: [{ uriTemplate: "weather://cities/{city}", name: "city", http: { method: "GET", path: "/c/{city}" } }],
    });
    await expect(client.readResource("weather://cities/..")).rejects.toThrow(/path parameter 'city'/);
    expect(host.requests).toEqual([]);
    const ok = await client.readResource("weather://cities/Paris");
    expect(ok.contents[0]).toMatchObject({ text: "/v1/c/Paris" });
  });
});

describe("item 6: cookie parameters cannot add cookies", () => {
  it("a value with '; session=attacker' is percent-encoded into the one cookie", async () => {
    const host = await hostile((r, res) => res.end(r.headers.cookie ?? ""));
    const { client } = await mcp(
      {
        baseUrl: host.url,
        securitySchemes: [{ id: "s", type: "apiKey", in: "cookie", name: "session", env: "SESSION" }],
      },
      [
        tool("prefs", {
          method: "GET",
          path: "/prefs",
          parameters: [{ name: "pref", in: "cookie" }],
          security: [["s"]],
        }),
      ],
      { env: { SESSION: "real-session-value" } },
    );
    await client.callTool("prefs", { pref: "x; session=attacker" });
    const cookies = (host.requests[0].headers.cookie ?? "").split("; ").map((c) => c.split("="));
    expect(cookies.map(([name]) => name)).toEqual(["pref", "session"]);
    expect(decodeURIComponent(cookies[0][1])).toBe("x; session=attacker");
    // RFC 6265 cookie-octets only: no space, DQUOTE, comma, semicolon or backslash in a value.
    expect(cookies[0][1]).toMatch(/^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/);
  });
});

describe("item 7: credentials are redacted from every result, in every encoding", () => {
  const forms = [
    KEY,
    encodeURIComponent(KEY),
    TOKEN,
    BASIC,
    Buffer.from(BASIC).toString("base64"),
    "pw-SECRET-91ce7d0a",
  ];
  it("status text, error bodies and success bodies (text and structuredContent)", async () => {
    const host = await hostile((r, res) => {
      const echo = `${r.headers.authorization} ${r.headers["x-api-key"]} ${r.url}`;
      if (r.path === "/status") res.writeHead(401, `Bad token ${r.headers.authorization}`).end();
      else if (r.path === "/error") res.writeHead(400, { "content-type": "text/plain" }).end(echo);
      else if (r.path === "/text") res.writeHead(200, { "content-type": "text/plain" }).end(echo);
      else {
        // The credentials raw, and once more with JSON escapes a text search alone would miss.
        const escaped = JSON.stringify(KEY).replace(/S/g, "\\u0053");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"echo":${JSON.stringify(echo)},"escaped":${escaped},"${TOKEN}":1}`);
      }
    });
    const schemes = [
      { id: "key", type: "apiKey" as const, in: "header" as const, name: "x-api-key", env: "KEY" },
      { id: "q", type: "apiKey" as const, in: "query" as const, name: "k", env: "KEY" },
      { id: "bearer", type: "bearer" as const, env: "TOKEN" },
      { id: "basic", type: "basic" as const, env: "BASIC" },
    ];
    const { client } = await mcp(
      { baseUrl: host.url, securitySchemes: schemes },
      ["status", "error", "text", "json"].flatMap((name) => [
        tool(`${name}_bearer`, { method: "GET", path: `/${name}`, security: [["key", "q", "bearer"]], parameters: [] }),
        tool(`${name}_basic`, { method: "GET", path: `/${name}`, security: [["basic"]], parameters: [] }),
      ]),
      { env: { KEY, TOKEN, BASIC } },
    );
    for (const name of ["status", "error", "text", "json"]) {
      for (const variant of ["bearer", "basic"]) {
        const result = await client.callTool(`${name}_${variant}`, {});
        const all = seen(result);
        for (const form of forms) expect(all, `${name}_${variant} leaks ${form}`).not.toContain(form);
        expect(all).toContain(REDACTED);
      }
    }
    // The upstream did get them: the redaction, not a missing credential, keeps them out.
    expect(host.requests.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(host.requests.some((r) => r.url.includes(`k=${encodeURIComponent(KEY)}`))).toBe(true);
  });
});

describe("issue 12: an unreachable upstream names the cause", () => {
  it("says ECONNREFUSED and the address, not only 'fetch failed'", async () => {
    // A freed port can be taken again by a server of a test running alongside; then try another.
    for (let attempt = 1; ; attempt++) {
      const gone = await startHostile();
      const port = new URL(gone.url).port;
      await gone.close();
      const { client } = await mcp({ baseUrl: gone.url }, [tool("x", { method: "GET", path: "/x" })]);
      const result = await client.callTool("x", {});
      expect(result.isError).toBe(true);
      if (attempt < 3 && !text(result).includes("ECONNREFUSED")) continue;
      expect(text(result)).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
      return;
    }
  });
});

describe("the generated server's flags and env twins", () => {
  it("--max-upstream-body and MCP_MAX_REDIRECTS reach the upstream path; bad values exit 2 with usage", async () => {
    const dir = scratchDir("upstream-flags");
    const spec = {
      server: { name: "flags", version: "1.0.0" },
      upstream: { baseUrl: "http://127.0.0.1:1" },
      tools: [
        { name: "long", inputSchema: { type: "object" }, http: { method: "GET", path: "/long" } },
        { name: "hop", inputSchema: { type: "object" }, http: { method: "GET", path: "/hop" } },
      ],
    };
    writeFileSync(join(dir, "flags.yaml"), stringify(spec));
    const result = await generate(join(dir, "flags.yaml"), join(dir, "pkg"));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const host = await hostile((r, res) => {
      if (r.path === "/long") res.writeHead(200, { "content-type": "text/plain" }).end("z".repeat(5000));
      else res.writeHead(302, { location: "/hop" }).end();
    });
    const script = join(dir, "pkg/src/server.ts");
    const server = await startHttpProcess(
      script,
      { MCP_MAX_REDIRECTS: "1" },
      [],
      ["--port", "0", "--base-url", host.url, "--max-upstream-body", "1000"],
    );
    try {
      const client = await connect({ url: server.url });
      const long = text(await client.callTool("long", {}));
      expect(long).toMatch(/^z{1000}\n\[cut: the upstream API's answer is longer than 1000 characters/);
      expect(text(await client.callTool("hop", {}))).toMatch(/more than 1 redirects/);
      await client.close();
    } finally {
      await server.stop();
    }
    const bad = spawnSync(process.execPath, ["--import", "tsx", script, "--max-redirects", "lots"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--max-redirects must be a whole number >= 0, not 'lots'/);
  }, 120_000);
});
