// The generated client (src/client.ts of a generated package) logs in to the generated server run with
// --auth-issuer (a real process), against a real oidc-provider: tools/list shows what the token's scopes
// allow, a call needing more scopes steps up, and the upstream never sees the MCP token. Then issue 17's
// whole chain: the same login, and a tool whose upstream needs a per-user token the server obtains by
// token exchange (RFC 8693): the upstream sees the exchanged token, never the MCP one.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthTarget } from "../../runtime/features/oauth/client/index.ts";
import type { McpClient } from "../../runtime/index.ts";
import { type ServerProcess, startServer, thingsPackage } from "../auth/support.ts";
import { startUpstream } from "../generate/support.ts";
import { authorize, type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { claimsOf, exchangeClient, tokenExchangeGrant } from "../support/oidc-token-exchange.ts";

const UPSTREAM_AUDIENCE = "https://api.things.example";
const grant = tokenExchangeGrant();
let op: OidcTestProvider;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let server: ServerProcess;
let pkg: string;

beforeAll(async () => {
  op = await startOidcProvider({ clients: [exchangeClient], configure: grant.configure });
  grant.attach(op);
  upstream = await startUpstream({
    "GET /things": () => ({ json: { things: ["a"] } }),
    "POST /things": () => ({ json: { ok: true } }),
  });
  // OAuth (its client half, runtime/features/oauth/client/, is what src/client.ts logs in with) and token exchange.
  pkg = await thingsPackage(["oauth", "token-exchange"]);
  server = await startServer(pkg, ["--auth-issuer", op.issuer, "--base-url", upstream.url], {
    THINGS_TOKEN: "upstream-secret",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  await op?.stop();
});

/** What the generated src/client.ts exports with the oauth feature (its connect takes `{ url, auth }`). */
type Generated = Pick<
  typeof import("../../runtime/features/oauth/client/index.ts"),
  "memoryTokenStore" | "startLoopbackRedirect"
> & {
  connect(target: OAuthTarget): Promise<McpClient>;
};

/** connect() of the generated client, logging in through the loopback helper with the test's consent. */
async function loginAndConnect(
  generated: Generated,
  url: string,
  scopes: string[],
  asked: string[] = [],
  mcpTokens: string[] = [],
) {
  const loopback = await generated.startLoopbackRedirect({ timeoutMs: 20_000 });
  // Keeps every access token the client got, to prove none of them reached the upstream.
  const store = generated.memoryTokenStore();
  const client = await generated.connect({
    url,
    auth: {
      redirectUrl: loopback.redirectUrl,
      scopes,
      tokenStore: {
        get: (key) => store.get(key),
        set: (key, value) => {
          if (value.tokens?.accessToken) mcpTokens.push(value.tokens.accessToken);
          return store.set(key, value);
        },
      },
      onAuthorizationUrl: async (authorizationUrl) => {
        asked.push(authorizationUrl.searchParams.get("scope") ?? "");
        // Each login (the step-up too) listens again on the same loopback port.
        const waiting = loopback.callback();
        await (await fetch(await authorize(authorizationUrl, loopback.redirectUrl))).text();
        return waiting;
      },
    },
  });
  return { client, close: () => Promise.all([client.close(), loopback.close()]) };
}

describe("generated client with OAuth", () => {
  it("logs in through the loopback helper, lists what its scopes allow, steps up for a write", async () => {
    const generated = (await import(join(pkg, "src/client.ts"))) as Generated;
    const scopesAsked: string[] = [];
    const { client, close } = await loginAndConnect(generated, server.url, ["things:read"], scopesAsked);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(listed).toEqual(["list_things", "server_time"]);
      expect((await client.callTool("list_things", {})).isError).toBeFalsy();
      expect(scopesAsked).toHaveLength(1);
      // add_thing needs things:write: 403 insufficient_scope, a second login for both scopes, then the call.
      expect((await client.callTool("add_thing", { name: "x" })).isError).toBeFalsy();
      expect(scopesAsked).toHaveLength(2);
      expect(scopesAsked[1].split(" ")).toEqual(expect.arrayContaining(["things:read", "things:write"]));
    } finally {
      await close();
    }
    const sent = upstream.requests.map((request) => request.headers.authorization);
    expect(sent).toHaveLength(2);
    expect(sent.every((header) => header === "Bearer upstream-secret")).toBe(true);
  });

  it("end to end: log in, list by scope, call a tool whose upstream gets a per-user token by token exchange", async () => {
    const exchanging = await startServer(
      pkg,
      [
        "--auth-issuer",
        op.issuer,
        "--base-url",
        upstream.url,
        "--upstream-token-exchange",
        op.tokenEndpoint,
        "--upstream-audience",
        UPSTREAM_AUDIENCE,
      ],
      // No shared upstream credential at all: the only way to the upstream is the caller's exchanged token.
      { MCP_UPSTREAM_CLIENT_ID: exchangeClient.client_id, MCP_UPSTREAM_CLIENT_SECRET: exchangeClient.client_secret },
    );
    upstream.requests.length = 0;
    const generated = (await import(join(pkg, "src/client.ts"))) as Generated;
    const mcpTokens: string[] = [];
    const { client, close } = await loginAndConnect(generated, exchanging.url, ["things:read"], [], mcpTokens);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["list_things", "server_time"]);
      const result = await client.callTool("list_things", {});
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect((await client.callTool("list_things", {})).isError).toBeFalsy();
    } finally {
      await close();
      await exchanging.stop();
    }
    expect(upstream.requests).toHaveLength(2);
    const sent = upstream.requests.map((request) => (request.headers.authorization ?? "").replace(/^Bearer /, ""));
    // The exchanged token: issued for the upstream's audience, to the user who logged in, by the exchange.
    const exchanged = grant.exchanges.map((exchange) => exchange.issued);
    expect(exchanged).toHaveLength(1); // the second call reused it
    expect(sent).toEqual([exchanged[0], exchanged[0]]);
    expect(claimsOf(sent[0]).aud).toBe(UPSTREAM_AUDIENCE);
    // The MCP token (issued for this server) went to the exchange as its subject, never to the upstream.
    expect(grant.exchanges[0]?.subject).toBe(claimsOf(sent[0]).sub);
    expect(mcpTokens.length).toBeGreaterThan(0);
    const everything = JSON.stringify(
      upstream.requests.map((request) => [request.headers, request.path, request.body]),
    );
    for (const token of mcpTokens) expect(everything).not.toContain(token);
  });
});
