import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect } from "../../runtime/index.ts";
import { scratchDir, startUpstream } from "../generate/support.ts";
import { type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { claimsOf, exchangeClient, tokenExchangeGrant } from "../support/oidc-token-exchange.ts";
import { runPackage, stopPackage } from "../support/package-process.ts";

const MCP_AUDIENCE = "https://mcp.example.test/mcp";
const UPSTREAM_AUDIENCE = "https://api.upstream.example.test";

// Token exchange works on the caller's validated token: the feature, with oauth.
const spec = (baseUrl: string) => `features: [oauth, token-exchange]
server: { name: exchange-e2e, version: 1.0.0, registryName: io.github.mcpgen-examples/exchange-e2e }
upstream:
  baseUrl: ${baseUrl}
tools:
  - name: whoami
    description: Who the upstream thinks you are.
    inputSchema: { type: object, properties: {} }
    http: { method: GET, path: /me }
`;

const HOOK = `import type { SpecContext, UpstreamCredentials } from "../runtime/handler-api.ts";

export default async function credentials(ctx: SpecContext): Promise<UpstreamCredentials | undefined> {
  return ctx.auth?.subject === "carol" ? { headers: { "x-user-key": "key-for-carol" } } : undefined;
}
`;

let pkg: string;
let upstream: Awaited<ReturnType<typeof startUpstream>>;

beforeAll(async () => {
  upstream = await startUpstream({ "GET /me": () => ({ json: { me: "ok" } }) });
  const dir = scratchDir("exchange-e2e");
  writeFileSync(join(dir, "api.yaml"), spec(upstream.url));
  pkg = join(dir, "api");
  await generate(join(dir, "api.yaml"), pkg);
  // The user's hook: carol has a key of her own; everyone else falls through to the token exchange.
  writeFileSync(join(pkg, "src/credentials.ts"), HOOK);
  await generate(join(dir, "api.yaml"), pkg);
}, 120_000);
afterAll(async () => {
  await upstream?.close();
});

describe("token exchange flags of a generated server", () => {
  it("refuses an incomplete or unsafe configuration at start-up with a clear message (exit 2)", async () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [["--upstream-token-exchange", "https://as.example/token"], {}, /needs --http/],
      [["--http", "--port", "0", "--upstream-token-exchange", "http://as.example/token"], {}, /must be an https URL/],
      [["--http", "--port", "0", "--upstream-token-exchange", "https://as.example/token"], {}, /--upstream-audience/],
      [
        ["--http", "--port", "0", "--upstream-token-exchange", "https://as.example/token"],
        { MCP_UPSTREAM_AUDIENCE: UPSTREAM_AUDIENCE },
        /MCP_UPSTREAM_CLIENT_ID/,
      ],
      [["--upstream-audience", UPSTREAM_AUDIENCE], {}, /need --upstream-token-exchange/],
      [
        ["--http", "--port", "0", "--upstream-token-exchange", "https://as.example/token"],
        { MCP_UPSTREAM_AUDIENCE: UPSTREAM_AUDIENCE, MCP_UPSTREAM_CLIENT_ID: "mcp-server" },
        /needs --auth-issuer/,
      ],
    ];
    for (const [args, env, message] of cases) {
      const result = await runPackage(pkg, args, { MCP_UPSTREAM_CLIENT_ID: "", ...env });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const help = await runPackage(pkg, ["--help"]);
    expect(help.stderr).toContain("--upstream-token-exchange <url>");
    expect(help.stderr).toContain("MCP_UPSTREAM_CLIENT_SECRET");
  }, 60_000);
});

describe("node dist/server.js with --auth-issuer and --upstream-token-exchange", () => {
  let oidc: OidcTestProvider;
  const grant = tokenExchangeGrant();
  beforeAll(async () => {
    oidc = await startOidcProvider({ clients: [exchangeClient], configure: grant.configure });
    grant.attach(oidc);
  });
  afterAll(async () => {
    await oidc?.stop();
  });

  it("the upstream sees the exchanged token, never the MCP one; one exchange per subject; two subjects, two tokens", async () => {
    const server = await runPackage(
      pkg,
      [
        "--http",
        "--port",
        "0",
        "--auth-issuer",
        oidc.issuer,
        "--auth-audience",
        MCP_AUDIENCE,
        "--upstream-token-exchange",
        oidc.tokenEndpoint,
        "--upstream-audience",
        UPSTREAM_AUDIENCE,
      ],
      { MCP_UPSTREAM_CLIENT_ID: exchangeClient.client_id, MCP_UPSTREAM_CLIENT_SECRET: exchangeClient.client_secret },
    );
    expect(server.url, server.stderr).toBeDefined();
    upstream.requests.length = 0;
    try {
      const tokens = {
        alice: await oidc.signToken({ sub: "alice", aud: MCP_AUDIENCE, client_id: "mcp-app" }),
        bob: await oidc.signToken({ sub: "bob", aud: MCP_AUDIENCE, client_id: "mcp-app" }),
        carol: await oidc.signToken({ sub: "carol", aud: MCP_AUDIENCE, client_id: "mcp-app" }),
      };
      for (const who of ["alice", "alice", "bob", "carol"] as const) {
        const client = await connect({ url: server.url as string, bearerToken: tokens[who] });
        try {
          const result = await client.callTool("whoami", {});
          expect(result.isError, JSON.stringify(result)).not.toBe(true);
        } finally {
          await client.close();
        }
      }
      expect(upstream.requests).toHaveLength(4);
      // The hook saw the validated caller (ctx.auth) and its answer replaced the exchange for carol.
      expect(upstream.requests[3].headers["x-user-key"]).toBe("key-for-carol");
      expect(upstream.requests[3].headers.authorization).toBeUndefined();
      const sent = upstream.requests.slice(0, 3).map((r) => (r.headers.authorization ?? "").replace(/^Bearer /, ""));
      expect(sent.map((t) => claimsOf(t))).toMatchObject([
        { sub: "alice", aud: UPSTREAM_AUDIENCE },
        { sub: "alice", aud: UPSTREAM_AUDIENCE },
        { sub: "bob", aud: UPSTREAM_AUDIENCE },
      ]);
      expect(sent[1]).toBe(sent[0]);
      expect(sent[2]).not.toBe(sent[0]);
      expect(grant.exchanges.map((e) => e.subject)).toEqual(["alice", "bob"]);
      const everything = JSON.stringify(upstream.requests.map((r) => [r.headers, r.path, r.body]));
      for (const token of Object.values(tokens)) expect(everything).not.toContain(token);
    } finally {
      await stopPackage(server);
    }
  }, 60_000);
});
