/**
 * Per-user upstream OAuth across instances (issue 34): two instances of a generated server behind its own
 * deploy/nginx.conf, sharing Redis (--session-store) and one MCP_UPSTREAM_TOKEN_KEY. A user signs in through
 * nginx (each step may land on either instance); once the API token is past its renewal time, concurrent calls
 * on both instances refresh it once (one refresh per user across instances), and both then use the new token.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { scratchDir } from "../generate/support.ts";
import { freePort } from "../support/free-port.ts";
import { type Nginx, startNginx } from "../support/nginx.ts";
import { type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import {
  accountsDocument,
  signInAs,
  startUpstreamOAuthApi,
  type UpstreamOAuthApi,
} from "../support/upstream-oauth-api.ts";
import { type Instance, nginxConfigFor, startInstance, stopInstance } from "./cluster.ts";

const MCP_AUDIENCE = "https://mcp.example.test/mcp";

let api: UpstreamOAuthApi;
let oidc: OidcTestProvider;
let redis: RedisServer;
let nginx: Nginx;
let instances: Instance[] = [];
let front: string;

beforeAll(async () => {
  const listenPort = await freePort();
  front = `http://127.0.0.1:${listenPort}`;
  api = await startUpstreamOAuthApi(() => `${front}/oauth/upstream/callback`);
  oidc = await startOidcProvider({});
  redis = await startRedis();
  const dir = scratchDir("uoauth-scale");
  writeFileSync(join(dir, "api.json"), JSON.stringify(accountsDocument(api)));
  const pkg = join(dir, "api");
  await generate(join(dir, "api.json"), pkg, { features: ["upstream-oauth", "redis"] });
  const ports = [await freePort(), await freePort()];
  const options = {
    upstream: api.apiUrl,
    sessionStore: redis.url,
    args: ["--auth-issuer", oidc.issuer, "--auth-audience", MCP_AUDIENCE, "--public-url", front],
    env: {
      MCP_UPSTREAM_CLIENT_ID: api.clientId,
      MCP_UPSTREAM_CLIENT_SECRET: api.clientSecret,
      MCP_UPSTREAM_TOKEN_KEY: "b".repeat(64),
    },
  };
  instances = await Promise.all(ports.map((port) => startInstance(pkg, port, options)));
  nginx = await startNginx(nginxConfigFor(pkg, listenPort, ports, join(pkg, "access.log")), listenPort);
}, 180_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map(stopInstance));
  await redis?.stop();
  await api?.close();
  await oidc?.stop();
});

async function client(url: string, user: string) {
  const made = new Client({ name: "sdk", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const token = await oidc.signToken({ sub: user, aud: MCP_AUDIENCE, client_id: "mcp-app" });
  await made.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return made;
}

const login = async (c: Client) => {
  const result = await c.callTool({ name: "getMe", arguments: {} });
  return JSON.stringify(result);
};

describe("two instances behind nginx with Redis", () => {
  it("a sign-in through nginx serves both instances; a token past renewal is refreshed once across them", async () => {
    api.setTtl(2);
    const viaNginx = await client(`${front}/mcp`, "yara");
    const asked = await viaNginx.callTool({ name: "getMe", arguments: {} }).then(
      () => undefined,
      (error: { code?: number; data?: { elicitations?: { url: string }[] } }) => error,
    );
    expect(asked?.code).toBe(-32042);
    const link = asked?.data?.elicitations?.[0].url as string;
    expect(link.startsWith(`${front}/oauth/upstream/connect?id=`), `${link} ${front}`).toBe(true);
    expect((await signInAs(link, "yara")).status).toBe(200);
    expect(await login(viaNginx)).toContain('\\"login\\":\\"yara\\"');

    // Each instance directly: both hold the user's token (shared, sealed in Redis).
    const [a, b] = await Promise.all(instances.map((instance) => client(instance.url, "yara")));
    expect(await login(a)).toContain('\\"login\\":\\"yara\\"');
    expect(await login(b)).toContain('\\"login\\":\\"yara\\"');

    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const before = api.grants.filter((g) => g.type === "refresh_token").length;
    const answers = await Promise.all([a, b, a, b, a, b].map(login));
    for (const answer of answers) expect(answer).toContain('\\"login\\":\\"yara\\"');
    expect(api.grants.filter((g) => g.type === "refresh_token").length - before).toBe(1);
    // After the refresh both instances send the same new token.
    const last = api.calls.slice(-6).map((c) => c.token);
    expect(new Set(last).size).toBe(1);
    for (const instance of instances) for (const token of api.issued) expect(instance.stderr()).not.toContain(token);
    await Promise.all([viaNginx.close(), a.close(), b.close()]);
  }, 120_000);
});
