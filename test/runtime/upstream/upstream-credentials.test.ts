// Per-user upstream credentials (issue 17), through the runtime a generated package runs: the credentials
// hook, the built-in RFC 8693 token exchange against a real oidc-provider on 127.0.0.1, and a recording
// upstream that sees every header. The caller's principal is set on the context directly (the seam), so
// these tests hold without the HTTP token validation; test/auth/upstream-exchange-e2e.test.ts runs the
// whole path with real processes.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { callToolInProcess } from "../../../runtime/features/code/call-in-process.ts";
import {
  exchangedToken,
  type TokenExchangeConfig,
  tokenExchanger,
} from "../../../runtime/features/token-exchange/token-exchange.ts";
import type { AuthPrincipal } from "../../../runtime/handler-api.ts";
import { CredentialsError } from "../../../runtime/handler-api.ts";
import { createSpecServer, type SpecServerOptions } from "../../../runtime/package/spec-server.ts";
import type { HandlerContext } from "../../../runtime/server/types.ts";
import { callUpstream } from "../../../runtime/upstream/forward.ts";
import { type HostileUpstream, startHostile, tool } from "../../hardening/hostile-upstream.ts";
import { type OidcTestProvider, startOidcProvider } from "../../support/oidc-provider.ts";
import { claimsOf, exchangeClient, tokenExchangeGrant } from "../../support/oidc-token-exchange.ts";
import { modernMeta } from "../helpers.ts";

const MCP_RESOURCE = "http://127.0.0.1:1/mcp";
const UPSTREAM_AUDIENCE = "https://api.upstream.example";

const grant = tokenExchangeGrant();
let oidc: OidcTestProvider;
let upstream: HostileUpstream;

beforeAll(async () => {
  oidc = await startOidcProvider({ clients: [exchangeClient], configure: grant.configure });
  grant.attach(oidc);
  upstream = await startHostile((req, res) => {
    res.setHeader("content-type", "application/json");
    // /tell echoes what it was sent, as careless APIs do in errors: the answer must reach no client unredacted.
    res.end(JSON.stringify(req.path === "/tell" ? { youSent: req.headers.authorization } : { ok: true }));
  });
});
afterAll(async () => {
  await upstream?.close();
  await oidc?.stop();
});
afterEach(() => {
  upstream.requests.length = 0;
  grant.exchanges.length = 0;
});

/** A caller whose MCP token the authorization server signed (what --auth-issuer validation yields). */
async function principal(subject: string): Promise<AuthPrincipal> {
  const token = await oidc.signToken({ sub: subject, aud: MCP_RESOURCE, scope: "pets" });
  return { subject, scopes: ["pets"], claims: { sub: subject }, issuer: oidc.issuer, token };
}

const exchangeConfig = (over: Partial<TokenExchangeConfig> = {}): TokenExchangeConfig => ({
  tokenEndpoint: oidc.tokenEndpoint,
  audience: UPSTREAM_AUDIENCE,
  clientId: exchangeClient.client_id,
  clientSecret: exchangeClient.client_secret,
  ...over,
});

/** The token-exchange feature's exchanger for that configuration (what its configure hands the server). */
const exchanger = (over: Partial<TokenExchangeConfig> = {}) => exchangedToken(tokenExchanger(exchangeConfig(over)));

/** A spec server with one forwarding tool `me` (GET /me) and one whose header parameter the caller fills. */
async function server(options: SpecServerOptions) {
  const spec = createSpecServer(
    {
      server: { name: "upstream-credentials", version: "1.0.0" },
      upstream: {
        baseUrl: upstream.url,
        securitySchemes: [{ id: "key", type: "apiKey", in: "header", name: "x-api-key", env: "API_KEY" }],
      },
      callUpstream,
      offers: { tools: true },
      catalog: () => ({
        tools: [
          tool("me", { method: "GET", path: "/me", security: [["key"]] }),
          tool("tell", { method: "GET", path: "/tell" }),
          tool("echo", {
            method: "GET",
            path: "/echo",
            parameters: [{ name: "X-Note", in: "header", arg: ["note"] }],
          }),
        ],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      }),
    },
    { env: { API_KEY: "shared-env-key" }, ...options },
  );
  // The catalog is read on the first request.
  await spec.handleRequest(
    { jsonrpc: "2.0", id: 0, method: "tools/list", params: { _meta: modernMeta() } },
    { signal: new AbortController().signal, notify: () => {} },
  );
  return (name: string, auth: AuthPrincipal | undefined, args: Record<string, unknown> = {}) => {
    const ctx = { signal: new AbortController().signal, meta: {}, ...(auth ? { auth } : {}) };
    return callToolInProcess(spec, name, args, ctx as unknown as HandlerContext);
  };
}

const text = (result: { content?: Array<{ type: string; text?: string }> }) =>
  (result.content ?? []).map((c) => c.text ?? "").join("\n");

/** Every header value every upstream request carried, as one string. */
const everyHeader = () => JSON.stringify(upstream.requests.map((r) => r.headers));

describe("token exchange (RFC 8693) against oidc-provider", () => {
  test("the upstream gets the exchanged token for its audience, never the MCP token; cached per subject", async () => {
    const call = await server({ userToken: exchanger() });
    const alice = await principal("alice");
    const bob = await principal("bob");

    const first = await call("me", alice);
    expect(first.isError).not.toBe(true);
    const sent = upstream.requests[0].headers.authorization ?? "";
    expect(sent).toMatch(/^Bearer /);
    const exchanged = sent.slice("Bearer ".length);
    expect(claimsOf(exchanged)).toMatchObject({ sub: "alice", aud: UPSTREAM_AUDIENCE });
    expect(exchanged).not.toBe(alice.token);
    // The spec's env credential is replaced, not added to.
    expect(upstream.requests[0].headers["x-api-key"]).toBeUndefined();

    await call("me", alice);
    expect(grant.exchanges).toHaveLength(1);
    expect(upstream.requests[1].headers.authorization).toBe(sent);

    await call("me", bob);
    expect(grant.exchanges.map((e) => e.subject)).toEqual(["alice", "bob"]);
    const bobs = (upstream.requests[2].headers.authorization ?? "").slice("Bearer ".length);
    expect(claimsOf(bobs)).toMatchObject({ sub: "bob", aud: UPSTREAM_AUDIENCE });
    expect(bobs).not.toBe(exchanged);

    for (const { token } of [alice, bob]) expect(everyHeader()).not.toContain(token);
  });

  test("the exchanged token is redacted from what the upstream answers", async () => {
    const call = await server({ userToken: exchanger() });
    const result = await call("tell", await principal("rae"));
    const issued = grant.exchanges[0].issued;
    expect(JSON.stringify(result)).toContain("[REDACTED]");
    expect(JSON.stringify(result)).not.toContain(issued);
  });

  test("concurrent calls of one subject share one exchange", async () => {
    const call = await server({ userToken: exchanger() });
    const carol = await principal("carol");
    const results = await Promise.all(Array.from({ length: 8 }, () => call("me", carol)));
    expect(results.every((r) => r.isError !== true)).toBe(true);
    expect(grant.exchanges).toHaveLength(1);
    expect(new Set(upstream.requests.map((r) => r.headers.authorization)).size).toBe(1);
  });

  test("the cache is bounded: the least recently used subject is exchanged again", async () => {
    const call = await server({ userToken: exchanger({ maxEntries: 2 }) });
    const [a, b, c] = await Promise.all(["u1", "u2", "u3"].map(principal));
    for (const p of [a, b, c, a]) await call("me", p);
    expect(grant.exchanges.map((e) => e.subject)).toEqual(["u1", "u2", "u3", "u1"]);
  });

  test("an upstream token is exchanged again shortly before it expires, and never outlives the MCP token", async () => {
    grant.ttlSeconds = 1;
    try {
      const call = await server({ userToken: exchanger() });
      const pat = await principal("pat");
      await call("me", pat);
      await call("me", pat);
      expect(grant.exchanges).toHaveLength(1);
      // A 1 s token is dropped half way (the margin is 30 s or half its life, whichever is less).
      await new Promise((resolve) => setTimeout(resolve, 600));
      await call("me", pat);
      expect(grant.exchanges).toHaveLength(2);
    } finally {
      grant.ttlSeconds = 300;
    }
    const call = await server({ userToken: exchanger() });
    const expiring = { ...(await principal("quinn")), expiresAt: Math.floor(Date.now() / 1000) };
    await call("me", expiring);
    await call("me", expiring);
    expect(grant.exchanges.filter((e) => e.subject === "quinn")).toHaveLength(2);
  });

  test("a refused exchange is a clear tool error without a secret, and nothing is sent upstream", async () => {
    const call = await server({ userToken: exchanger({ clientSecret: "wrong-secret-value" }) });
    const dave = await principal("dave");
    const result = await call("me", dave);
    expect(result.isError).toBe(true);
    const message = text(result);
    expect(message).toContain("Token exchange for the upstream API at");
    expect(message).toMatch(/status 401 \(invalid_client\)/);
    expect(message).toContain("MCP_UPSTREAM_CLIENT_ID");
    for (const secret of ["wrong-secret-value", dave.token]) expect(message).not.toContain(secret);
    expect(upstream.requests).toHaveLength(0);
  });

  test("a token endpoint that does not answer is a clear tool error", async () => {
    const call = await server({ userToken: exchanger({ tokenEndpoint: "http://127.0.0.1:9/token" }) });
    const result = await call("me", await principal("erin"));
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^Token exchange for the upstream API at http:\/\/127\.0\.0\.1:9\/token failed: no answer/,
    );
  });

  test("without a validated caller the exchange refuses instead of falling back to shared credentials", async () => {
    const call = await server({ userToken: exchanger() });
    const result = await call("me", undefined);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("--auth-issuer");
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("the credentials(ctx) hook", () => {
  test("its bearer token or headers go upstream for this caller; undefined falls back to the env credentials", async () => {
    const call = await server({
      credentials: (ctx) =>
        ctx.auth?.subject === "frank"
          ? { bearer: "frank-upstream-token" }
          : ctx.auth?.subject === "gina"
            ? { headers: { "X-Api-Key": "gina-key" } }
            : undefined,
    });
    await call("me", await principal("frank"));
    await call("me", await principal("gina"));
    await call("me", await principal("hal"));
    expect(upstream.requests[0].headers.authorization).toBe("Bearer frank-upstream-token");
    expect(upstream.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(upstream.requests[1].headers["x-api-key"]).toBe("gina-key");
    expect(upstream.requests[2].headers["x-api-key"]).toBe("shared-env-key");
  });

  test("the hook comes first; undefined leaves the call to the token exchange", async () => {
    const call = await server({
      userToken: exchanger(),
      credentials: (ctx) => (ctx.auth?.subject === "ivy" ? { bearer: "ivy-own-token" } : undefined),
    });
    await call("me", await principal("ivy"));
    await call("me", await principal("jo"));
    expect(upstream.requests[0].headers.authorization).toBe("Bearer ivy-own-token");
    expect(claimsOf((upstream.requests[1].headers.authorization ?? "").slice(7))).toMatchObject({ sub: "jo" });
    expect(grant.exchanges.map((e) => e.subject)).toEqual(["jo"]);
  });

  test("a hook that throws: a generic tool error (no stack, no secret); CredentialsError's message is shown", async () => {
    const call = await server({
      credentials: (ctx) => {
        if (ctx.auth?.subject === "kim") throw new CredentialsError("link your account at https://app.example/link");
        throw new Error(`vault said no to secret-abc123 for ${ctx.auth?.token}`);
      },
    });
    const kim = await call("me", await principal("kim"));
    expect(kim.isError).toBe(true);
    expect(text(kim)).toBe("Upstream credentials: link your account at https://app.example/link");
    const lee = await principal("lee");
    const failed = await call("me", lee);
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain("The upstream credentials hook (src/credentials.ts) failed");
    for (const leak of ["secret-abc123", lee.token, "    at "]) expect(text(failed)).not.toContain(leak);
    expect(upstream.requests).toHaveLength(0);
  });

  test("a hook that returns the MCP token is refused: token passthrough is impossible", async () => {
    const call = await server({ credentials: (ctx) => ({ bearer: ctx.auth?.token }) });
    const mo = await principal("mo");
    const result = await call("me", mo);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("token passthrough is forbidden");
    expect(text(result)).not.toContain(mo.token);
    expect(upstream.requests).toHaveLength(0);

    const hidden = await server({ credentials: (ctx) => ({ headers: { "x-forward": `t=${ctx.auth?.token}` } }) });
    expect((await hidden("me", mo)).isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  test("the MCP token put into an argument that becomes a header is refused too", async () => {
    const call = await server({});
    const ned = await principal("ned");
    const result = await call("echo", ned, { note: `Bearer ${ned.token}` });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("token passthrough is forbidden");
    expect(upstream.requests).toHaveLength(0);
    // Any other value passes.
    expect((await call("echo", ned, { note: "hello" })).isError).not.toBe(true);
    expect(upstream.requests[0].headers["x-note"]).toBe("hello");
  });
});
