import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect } from "../../runtime/index.ts";
import { scratchDir } from "../generate/support.ts";
import { freePort } from "../support/free-port.ts";
import { type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { runPackage, stopPackage } from "../support/package-process.ts";
import {
  accountsDocument,
  signInAs,
  startUpstreamOAuthApi,
  type UpstreamOAuthApi,
} from "../support/upstream-oauth-api.ts";

const MCP_AUDIENCE = "https://mcp.example.test/mcp";
const TOKEN_KEY = "a".repeat(64);

let pkg: string;
let api: UpstreamOAuthApi;
let oidc: OidcTestProvider;
let port: number;
const results: string[] = []; // every result and error a client saw, for the leak check

beforeAll(async () => {
  port = await freePort();
  api = await startUpstreamOAuthApi(() => `http://127.0.0.1:${port}/oauth/upstream/callback`);
  oidc = await startOidcProvider({});
  const dir = scratchDir("uoauth-e2e");
  writeFileSync(join(dir, "api.json"), JSON.stringify(accountsDocument(api)));
  pkg = join(dir, "api");
  // The defaults (oauth, upstream-oauth, from the flow) plus the two serving modes.
  await generate(join(dir, "api.json"), pkg, { features: ["upstream-oauth", "dynamic", "code"] });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await oidc?.stop();
});

const serverArgs = (more: string[] = []) => [
  "--http",
  "--port",
  String(port),
  "--public-url",
  `http://127.0.0.1:${port}`,
  "--auth-issuer",
  oidc.issuer,
  "--auth-audience",
  MCP_AUDIENCE,
  ...more,
];
const serverEnv = () => ({
  MCP_UPSTREAM_CLIENT_ID: api.clientId,
  MCP_UPSTREAM_CLIENT_SECRET: api.clientSecret,
  MCP_UPSTREAM_TOKEN_KEY: TOKEN_KEY,
});
const mcpToken = (sub: string) => oidc.signToken({ sub, aud: MCP_AUDIENCE, client_id: "mcp-app" });

/** The official SDK client (2025-11-25), with URL elicitation unless `url: false`. */
async function sdkClient(url: string, user: string, options: { url?: boolean } = {}) {
  const client = new Client(
    { name: "sdk", version: "1.0.0" },
    { capabilities: options.url === false ? {} : { elicitation: { url: {} } } },
  );
  const headers = { authorization: `Bearer ${await mcpToken(user)}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A tools/call through the SDK: its result, or its JSON-RPC error's code and data. */
async function sdkCall(client: Client, name: string, args: Record<string, unknown> = {}) {
  try {
    const result = await client.callTool({ name, arguments: args });
    results.push(JSON.stringify(result));
    return { result };
  } catch (error) {
    const { code, data, message } = error as { code?: number; data?: unknown; message: string };
    results.push(JSON.stringify({ code, data, message }));
    return {
      error: {
        code,
        data: data as { elicitations?: { mode: string; url: string; elicitationId?: string }[] },
        message,
      },
    };
  }
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("\n");
const linkIn = (text: string) => /(http:\/\/127\.0\.0\.1:\d+\/oauth\/upstream\/connect\?id=[\w-]+)/.exec(text)?.[1];

describe("the server as an OAuth client of the API it wraps", () => {
  it("2025-11-25 through the SDK: URL elicitation (-32042), consent in a browser, the retry goes as that user; two users apart", async () => {
    const server = await runPackage(pkg, serverArgs(), serverEnv());
    expect(server.url, server.stderr).toBeDefined();
    try {
      const alice = await sdkClient(server.url as string, "alice");
      const tools = await alice.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["getMe", "upstream_sign_out"]));

      const first = await sdkCall(alice, "getMe");
      expect(first.error?.code, JSON.stringify(first)).toBe(-32042);
      const elicitation = first.error?.data.elicitations?.[0];
      expect(elicitation).toMatchObject({ mode: "url" });
      expect(elicitation?.url.startsWith(`http://127.0.0.1:${port}/oauth/upstream/connect?id=`)).toBe(true);
      expect(elicitation?.elicitationId).toBeTruthy();
      expect(api.calls).toHaveLength(0); // nothing was sent upstream without a token

      // The link is single-use and bound to the browser that opened it: a POST without its cookie is refused.
      const forged = await fetch(elicitation?.url as string, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "id=x&csrf=y",
      });
      expect(forged.status).toBe(403);

      const signed = await signInAs(elicitation?.url as string, "alice");
      expect(signed.status, signed.page).toBe(200);
      expect(signed.page).toContain("signed in");
      const again = await sdkCall(alice, "getMe");
      expect(again.result?.isError, JSON.stringify(again)).not.toBe(true);
      expect(textOf(again.result)).toContain('"login":"alice"');
      // A used link does not work twice.
      expect((await signInAs(elicitation?.url as string, "mallory")).status).toBe(404);

      // Bob is asked separately, and his call never carries alice's token.
      const bob = await sdkClient(server.url as string, "bob");
      const bobFirst = await sdkCall(bob, "getMe");
      expect(bobFirst.error?.code).toBe(-32042);
      const bobLink = bobFirst.error?.data.elicitations?.[0].url as string;
      expect(bobLink).not.toBe(elicitation?.url);
      expect((await signInAs(bobLink, "bob")).status).toBe(200);
      const bobAgain = await sdkCall(bob, "getMe");
      expect(textOf(bobAgain.result)).toContain('"login":"bob"');
      const aliceAgain = await sdkCall(alice, "getMe");
      expect(textOf(aliceAgain.result)).toContain('"login":"alice"');
      const byUser = (user: string) => new Set(api.calls.filter((c) => c.user === user).map((c) => c.token));
      for (const token of byUser("alice")) expect(byUser("bob").has(token)).toBe(false);
      expect(api.calls.every((c) => c.status === 200)).toBe(true);

      // A client without URL elicitation gets a tool error with the link and plain instructions.
      const carol = await sdkClient(server.url as string, "carol", { url: false });
      const plain = await sdkCall(carol, "getMe");
      expect(plain.result?.isError).toBe(true);
      expect(textOf(plain.result)).toMatch(/Open this link in a browser/);
      const carolLink = linkIn(textOf(plain.result));
      expect(carolLink).toBeDefined();
      expect((await signInAs(carolLink as string, "carol")).status).toBe(200);
      expect(textOf((await sdkCall(carol, "getMe")).result)).toContain('"login":"carol"');

      // Signing out forgets the tokens: the next call asks again.
      expect(textOf((await sdkCall(alice, "upstream_sign_out")).result)).toContain("Signed out");
      expect((await sdkCall(alice, "getMe")).error?.code).toBe(-32042);
      await Promise.all([alice.close(), bob.close(), carol.close()]);
    } finally {
      await stopPackage(server);
    }
    for (const token of api.issued) {
      expect(server.stderr).not.toContain(token);
      for (const seen of results) expect(seen).not.toContain(token);
    }
  }, 120_000);

  it("refreshes a token past expiry once for concurrent calls; a 401 refreshes; a revoked grant asks again", async () => {
    const server = await runPackage(pkg, serverArgs(), serverEnv());
    expect(server.url, server.stderr).toBeDefined();
    try {
      api.setTtl(2);
      const dave = await sdkClient(server.url as string, "dave");
      const link = (await sdkCall(dave, "getMe")).error?.data.elicitations?.[0].url as string;
      expect((await signInAs(link, "dave")).status).toBe(200);
      expect(textOf((await sdkCall(dave, "getMe")).result)).toContain('"login":"dave"');
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const before = api.grants.filter((g) => g.type === "refresh_token").length;
      const calls = await Promise.all([1, 2, 3, 4].map(() => sdkCall(dave, "getMe")));
      for (const call of calls) expect(textOf(call.result)).toContain('"login":"dave"');
      expect(api.grants.filter((g) => g.type === "refresh_token").length - before).toBe(1);

      // The API refuses the access token early (401): refreshed, and the call retried once.
      api.setTtl(3600);
      await new Promise((resolve) => setTimeout(resolve, 1_600)); // past renewAt of the 2 s token
      expect(textOf((await sdkCall(dave, "getMe")).result)).toContain('"login":"dave"');
      api.expireAccess("dave");
      const refreshes = api.grants.filter((g) => g.type === "refresh_token").length;
      const after401 = await sdkCall(dave, "getMe");
      expect(textOf(after401.result), JSON.stringify(after401)).toContain('"login":"dave"');
      expect(api.grants.filter((g) => g.type === "refresh_token").length).toBe(refreshes + 1);

      // The grant revoked at the API: the refresh answers invalid_grant, the tokens are forgotten, dave is asked again.
      api.revoke("dave");
      const revoked = await sdkCall(dave, "getMe");
      expect(revoked.error?.code, JSON.stringify(revoked)).toBe(-32042);
      await dave.close();
    } finally {
      api.setTtl(3600);
      await stopPackage(server);
    }
    for (const token of api.issued) expect(server.stderr).not.toContain(token);
  }, 120_000);

  it("2026-07-28 through our client: an input_required round with the URL elicitation, answered after consent", async () => {
    const server = await runPackage(pkg, serverArgs(), serverEnv());
    expect(server.url, server.stderr).toBeDefined();
    try {
      const asked: string[] = [];
      const erin = await connect(
        { url: server.url as string, bearerToken: await mcpToken("erin") },
        {
          protocolVersion: "2026-07-28",
          capabilities: { elicitation: { url: {} } },
          handlers: {
            elicitation: async (params) => {
              const p = params as { mode?: string; url?: string };
              asked.push(p.mode ?? "form");
              // The user opens the link and consents before answering.
              expect((await signInAs(p.url as string, "erin")).status).toBe(200);
              return { action: "accept" };
            },
          },
        },
      );
      expect(erin.era).toBe("modern");
      const result = await erin.callTool("getMe", {});
      results.push(JSON.stringify(result));
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(textOf(result)).toContain('"login":"erin"');
      expect(asked).toEqual(["url"]);
      // Signed in: no more rounds.
      expect(textOf(await erin.callTool("getMe", {}))).toContain('"login":"erin"');
      expect(asked).toHaveLength(1);
      await erin.close();
    } finally {
      await stopPackage(server);
    }
  }, 120_000);

  it("dynamic mode (call_tool) and code mode (execute) ask and then go as the user, in both eras", async () => {
    for (const mode of ["dynamic", "code"] as const) {
      const server = await runPackage(pkg, serverArgs(["--mode", mode]), serverEnv());
      expect(server.url, server.stderr).toBeDefined();
      try {
        const [name, args] =
          mode === "dynamic"
            ? ["call_tool", { name: "getMe", arguments: {} }]
            : ["execute", { code: "return await api.getMe({});" }];
        // 2025: the SDK.
        const user = `${mode}-2025`;
        const sdk = await sdkClient(server.url as string, user);
        const first = await sdkCall(sdk, name, args);
        // call_tool passes the elicitation on; code mode's execute reports the inner call's link as its error.
        if (mode === "dynamic") expect(first.error?.code, JSON.stringify(first)).toBe(-32042);
        else expect(first.result?.isError, JSON.stringify(first)).toBe(true);
        const link = first.error?.data.elicitations?.[0].url ?? linkIn(textOf(first.result));
        expect(link, JSON.stringify(first)).toBeDefined();
        expect((await signInAs(link as string, user)).status).toBe(200);
        const again = await sdkCall(sdk, name, args);
        expect(JSON.stringify(again.result), JSON.stringify(again)).toContain(`\\"login\\":\\"${user}\\"`);
        await sdk.close();
        // 2026: our client.
        const modern = `${mode}-2026`;
        const client = await connect(
          { url: server.url as string, bearerToken: await mcpToken(modern) },
          {
            protocolVersion: "2026-07-28",
            capabilities: { elicitation: { url: {} } },
            handlers: {
              elicitation: async (params) => {
                expect((await signInAs((params as { url: string }).url, modern)).status).toBe(200);
                return { action: "accept" };
              },
            },
          },
        );
        const result = await client.callTool(name, args as never);
        results.push(JSON.stringify(result));
        expect(JSON.stringify(result)).toContain(`\\"login\\":\\"${modern}\\"`);
        await client.close();
      } finally {
        await stopPackage(server);
      }
      for (const token of api.issued) expect(server.stderr).not.toContain(token);
    }
  }, 180_000);
});
