// The upstream-oauth feature's parts without a generated package (issue 34): its start-up settings, the vault
// (AES-256-GCM per user: a record moved to another user's key does not open; nothing readable in the store),
// and the sign-in pages over real HTTP: everything escaped, CSRF bound to the page's cookie, PKCE S256 and
// state on the way out, the exact redirect URI, the callback only in the browser that started, once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { upstreamOAuthConfig } from "../../../../runtime/features/upstream-oauth/config.ts";
import { escapeHtml, signInPages } from "../../../../runtime/features/upstream-oauth/pages.ts";
import { createVault } from "../../../../runtime/features/upstream-oauth/vault.ts";
import type { FeatureInput, SharedStore } from "../../../../runtime/package/feature.ts";

const input = (env: NodeJS.ProcessEnv, given: Record<string, string> = {}, store?: SharedStore): FeatureInput =>
  ({
    help: false,
    http: true,
    values: { port: 4000 },
    sources: {},
    given: { http: true, ...given },
    env,
    earlier: store ? { server: { sharedStore: store } } : {},
  }) as unknown as FeatureInput;

/** A store as Redis keeps it (strings by key with a TTL, claims), in a Map: what the vault writes is inspectable. */
function mapStore(): SharedStore & { cells: Map<string, string> } {
  const cells = new Map<string, string>();
  return {
    cells,
    get: async (key) => cells.get(key) || undefined,
    set: async (key, value) => void cells.set(key, value),
    add: async () => {},
    members: async () => [],
    claim: async (key, value) => {
      if (cells.get(key)) return false;
      cells.set(key, value);
      return true;
    },
  };
}

describe("start-up settings", () => {
  it("off without MCP_UPSTREAM_CLIENT_ID or over stdio; clear errors for a bad key, URL or a shared store without a key", () => {
    expect(upstreamOAuthConfig(input({}))).toBeUndefined();
    expect(upstreamOAuthConfig({ ...input({ MCP_UPSTREAM_CLIENT_ID: "c" }), http: false })).toBeUndefined();
    const on = upstreamOAuthConfig(input({ MCP_UPSTREAM_CLIENT_ID: "c" }));
    expect(on).toMatchObject({
      publicUrl: "http://127.0.0.1:4000",
      redirectUri: "http://127.0.0.1:4000/oauth/upstream/callback",
    });
    expect(upstreamOAuthConfig(input({ MCP_UPSTREAM_CLIENT_ID: "c", MCP_UPSTREAM_TOKEN_KEY: "abc" }))).toMatch(
      /64 hex characters/,
    );
    expect(
      upstreamOAuthConfig(input({ MCP_UPSTREAM_CLIENT_ID: "c" }, { "public-url": "http://mcp.example.com" })),
    ).toMatch(/must be the server's external https URL/);
    expect(
      upstreamOAuthConfig(input({ MCP_UPSTREAM_CLIENT_ID: "c", MCP_PUBLIC_URL: "https://mcp.example.com/" })),
    ).toMatchObject({
      redirectUri: "https://mcp.example.com/oauth/upstream/callback",
    });
    expect(upstreamOAuthConfig(input({ MCP_UPSTREAM_CLIENT_ID: "c" }, {}, mapStore()))).toMatch(
      /MCP_UPSTREAM_TOKEN_KEY is needed/,
    );
  });
});

describe("the vault", () => {
  it("seals each user's grant under their own key name: moved to another user's, it does not open", async () => {
    const store = mapStore();
    const vault = createVault(Buffer.alloc(32, 7), store);
    await vault.write("alice", {
      access: "ACCESS-SECRET",
      refresh: "REFRESH-SECRET",
      scopes: ["me"],
      tokenUrl: "https://as/t",
    });
    await vault.write("bob", { access: "BOB-ACCESS", scopes: [], tokenUrl: "https://as/t" });
    expect((await vault.read("alice"))?.access).toBe("ACCESS-SECRET");
    const stored = [...store.cells].map(([k, v]) => k + v).join("\n");
    for (const secret of ["ACCESS-SECRET", "REFRESH-SECRET", "alice", "bob"]) expect(stored).not.toContain(secret);
    const [aliceKey, bobKey] = [...store.cells.keys()];
    store.cells.set(bobKey, store.cells.get(aliceKey) as string);
    expect(await vault.read("bob")).toBeUndefined();
    // Another key (rotated) opens nothing: the users are asked again.
    expect(await createVault(Buffer.alloc(32, 8), store).read("alice")).toBeUndefined();
    await vault.forget("alice");
    expect(await vault.read("alice")).toBeUndefined();
  });
});

describe("the sign-in pages", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve() {
    const config = upstreamOAuthConfig(
      input({ MCP_UPSTREAM_CLIENT_ID: "client-1", MCP_UPSTREAM_TOKEN_KEY: "c".repeat(64) }),
    );
    if (!config || typeof config === "string") throw new Error(String(config));
    const vault = createVault(config.key);
    const pages = signInPages(config, vault);
    server = createServer((req, res) => {
      const page = pages[new URL(req.url ?? "/", "http://x").pathname];
      if (page) void page({ req, res });
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const label = `<img src=x onerror="alert(1)">`;
    await vault.put(
      "pending",
      "pending-1",
      {
        user: "u1",
        label,
        scopes: ["a<b"],
        authorizationUrl: "https://as.example/authorize?x=1",
        tokenUrl: "https://as.example/token",
      },
      60_000,
    );
    return { base, config, label };
  }

  it("escapes what it shows, refuses a forged POST, starts PKCE S256 with state and the exact redirect URI", async () => {
    const { base, config, label } = await serve();
    const page = await fetch(`${base}/oauth/upstream/connect?id=pending-1`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain(label);
    expect(html).toContain(escapeHtml(label));
    expect(html).toContain("a&#60;b");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
    expect(page.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${base}/oauth/upstream/connect`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
        redirect: "manual",
      });
    expect((await post({}, `id=pending-1&csrf=${csrf}`)).status).toBe(403); // no cookie: another site's form
    expect((await post({ cookie }, "id=pending-1&csrf=forged")).status).toBe(403);
    expect((await post({ cookie, origin: "https://evil.example" }, `id=pending-1&csrf=${csrf}`)).status).toBe(403);
    const started = await post({ cookie }, `id=pending-1&csrf=${csrf}`);
    expect(started.status).toBe(303);
    const target = new URL(started.headers.get("location") ?? "");
    expect(target.origin + target.pathname).toBe("https://as.example/authorize");
    expect(target.searchParams.get("x")).toBe("1");
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "client-1",
      redirect_uri: config.redirectUri,
      scope: "a<b",
      code_challenge_method: "S256",
    });
    expect(target.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const state = target.searchParams.get("state") ?? "";
    expect(state).toMatch(/^[\w-]{43}$/);
    // Used once: the same link again gets nothing.
    expect((await post({ cookie }, `id=pending-1&csrf=${csrf}`)).status).toBe(404);
    // The callback in another browser (another cookie, or none) binds nothing.
    const other = "mcpgen_upstream=someone-elses-cookie-value";
    expect(
      (await fetch(`${base}/oauth/upstream/callback?code=c&state=${state}`, { headers: { cookie: other } })).status,
    ).toBe(400);
    expect((await fetch(`${base}/oauth/upstream/callback?code=c&state=${state}`)).status).toBe(400);
  });
});
