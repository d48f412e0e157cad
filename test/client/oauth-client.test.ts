// The runtime client against a protected server (issue 17): a real oidc-provider on 127.0.0.1 as the
// authorization server, the runtime server with --auth-issuer settings in process, real HTTP throughout.
// Consent is answered by the harness (no browser); the redirect lands on the loopback helper.
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthOptions,
  memoryTokenStore,
  OAuthError,
  type OAuthTarget,
  type StoredAuth,
  startLoopbackRedirect,
  type TokenStore,
  withOAuth,
} from "../../runtime/features/oauth/client/index.ts";
import { oauthFeature } from "../../runtime/features/oauth/feature.ts";
import { scopeGate } from "../../runtime/features/oauth/scope-gate.ts";
import { type ClientOptions, connect as connectRuntime } from "../../runtime/index.ts";
import { createServer } from "../../runtime/server/server.ts";
import { type HttpServerHandle, serveHttp } from "../../runtime/transport/http/server.ts";
import { authorize, clients, type OidcTestProvider, secretOf, startOidcProvider } from "../support/oidc-provider.ts";

const SCOPES: Record<string, string[]> = {
  read_things: ["things:read"],
  write_things: ["things:read", "things:write"],
};

let op: OidcTestProvider;
let mcp: HttpServerHandle;
const tokensSeen: string[] = [];

beforeAll(async () => {
  op = await startOidcProvider();
  const server = createServer({
    name: "things",
    version: "1.0.0",
    toolGate: scopeGate({
      required: (name) => SCOPES[name],
      listAll: false,
      all: () => ["things:read", "things:write"],
    }),
  });
  for (const name of ["read_things", "write_things", "server_time"]) {
    server.tool({
      name,
      inputSchema: { type: "object" },
      handler: (_args, ctx) => {
        if (ctx.auth) tokensSeen.push(ctx.auth.token);
        return { content: [{ type: "text", text: `${name} as ${ctx.auth?.subject}` }] };
      },
    });
  }
  mcp = await serveHttp(server, {
    auth: { issuers: [op.issuer], cacheSeconds: 0, listAllTools: false },
    features: oauthFeature.http,
    log: () => {},
  });
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await op?.stop();
});

/** connect() as a generated client with the oauth feature has it: `auth` becomes the transport's authorizer. */
const connect = async (target: OAuthTarget, options?: ClientOptions) => connectRuntime(withOAuth(target), options);

/** A user who consents to everything, through the loopback redirect helper as a CLI would. */
async function interactive(extra: Partial<AuthOptions> = {}, counter = { logins: 0 }) {
  const loopback = await startLoopbackRedirect({ timeoutMs: 20_000 });
  const auth: AuthOptions = {
    redirectUrl: loopback.redirectUrl,
    onAuthorizationUrl: async (url) => {
      counter.logins++;
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("resource")).toBe(mcp.url);
      const waiting = loopback.callback();
      // The "browser": login and consent at the AS, then the redirect to the loopback listener.
      const landed = await authorize(url, loopback.redirectUrl);
      await (await fetch(landed)).text();
      return waiting;
    },
    ...extra,
  } as AuthOptions;
  return { auth, counter, loopback };
}

describe("runtime client with OAuth", () => {
  it("logs in with authorization code + PKCE after dynamic registration, then lists and calls tools", async () => {
    const store = memoryTokenStore();
    const { auth, counter } = await interactive({ tokenStore: store });
    const client = await connect({ url: mcp.url, auth });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["read_things", "server_time", "write_things"]);
      const result = await client.callTool("server_time", {});
      expect(result.content).toEqual([{ type: "text", text: `server_time as ${op.accountId}` }]);
      expect(counter.logins).toBe(1);
      const stored = (await store.get(mcp.url)) as StoredAuth;
      expect(stored.issuer).toBe(op.issuer);
      expect(stored.client?.clientId).toBeTruthy(); // registered by DCR: none was configured
      expect(stored.tokens?.refreshToken).toBeTruthy();
      expect(tokensSeen.at(-1)).toBe(stored.tokens?.accessToken);
    } finally {
      await client.close();
    }
  });

  it("refreshes an expired access token with the refresh token, without a new login", async () => {
    const store = memoryTokenStore();
    const { auth, counter } = await interactive({ tokenStore: store });
    const client = await connect({ url: mcp.url, auth });
    try {
      await client.callTool("server_time", {});
      const before = (await store.get(mcp.url)) as StoredAuth;
      // The token's lifetime is over (as far as the client knows): the next request refreshes first.
      await store.set(mcp.url, { ...before, tokens: { ...before.tokens!, expiresAt: Date.now() - 1 } });
      await client.callTool("server_time", {});
      const after = (await store.get(mcp.url)) as StoredAuth;
      expect(after.tokens?.accessToken).not.toBe(before.tokens?.accessToken);
      expect(after.tokens?.expiresAt).toBeGreaterThan(Date.now());
      expect(tokensSeen.at(-1)).toBe(after.tokens?.accessToken);
      expect(counter.logins).toBe(1);
      // A token the server refuses (401) is replaced by refreshing, still without a login.
      await store.set(mcp.url, {
        ...after,
        tokens: { ...after.tokens!, accessToken: "revoked", expiresAt: undefined },
      });
      await client.callTool("server_time", {});
      const refreshed = (await store.get(mcp.url)) as StoredAuth;
      expect(refreshed.tokens?.accessToken).not.toBe("revoked");
      expect(tokensSeen.at(-1)).toBe(refreshed.tokens?.accessToken);
      expect(counter.logins).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("reuses tokens from its token store on the next run", async () => {
    const store = memoryTokenStore();
    const first = await interactive({ tokenStore: store });
    const client = await connect({ url: mcp.url, auth: first.auth });
    await client.close();
    const second = await interactive({ tokenStore: store });
    const again = await connect({ url: mcp.url, auth: second.auth });
    try {
      await again.callTool("server_time", {});
      expect(second.counter.logins).toBe(0);
    } finally {
      await again.close();
      await second.loopback.close();
    }
  });

  it("gets a token by client credentials for a machine client", async () => {
    const store: TokenStore = memoryTokenStore();
    const client = await connect({
      url: mcp.url,
      auth: {
        clientCredentials: { clientId: clients.machine, clientSecret: secretOf(clients.machine) },
        tokenStore: store,
      },
    });
    try {
      const result = await client.callTool("server_time", {});
      expect(result.content).toEqual([{ type: "text", text: `server_time as ${clients.machine}` }]);
      const stored = (await store.get(mcp.url)) as StoredAuth;
      expect(stored.client).toBeUndefined(); // the secret is never written to the store
    } finally {
      await client.close();
    }
  });

  it("a stray request to the loopback callback (no or wrong state) neither ends nor fails the login", async () => {
    const loopback = await startLoopbackRedirect({ timeoutMs: 20_000 });
    const strays: number[] = [];
    const client = await connect({
      url: mcp.url,
      auth: {
        redirectUrl: loopback.redirectUrl,
        onAuthorizationUrl: async (url) => {
          const waiting = loopback.callback();
          // Any local page can request the callback first (issue 27 item 10).
          for (const query of [
            "?error=access_denied&error_description=Call%20support",
            "?error=x&state=guess",
            "?code=c",
          ])
            strays.push((await fetch(`${loopback.redirectUrl}${query}`)).status);
          const landed = await authorize(url, loopback.redirectUrl);
          await (await fetch(landed)).text();
          return waiting;
        },
      },
    });
    try {
      expect(strays).toEqual([400, 400, 400]);
      expect((await client.callTool("server_time", {})).isError).not.toBe(true);
    } finally {
      await client.close();
      await loopback.close();
    }
  });

  it("fails with a clear error when the client credentials are wrong", async () => {
    await expect(
      connect({ url: mcp.url, auth: { clientCredentials: { clientId: clients.machine, clientSecret: "wrong" } } }),
    ).rejects.toThrow(/Token request \(client_credentials\) failed: HTTP 401 invalid_client/);
  });
});

/** A rogue authorization server: metadata naming itself, and a token endpoint that records what it is sent. */
async function rogueAuthorizationServer() {
  const seen: { path: string; authorization?: string; body: string }[] = [];
  const server: Server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      seen.push({ path, authorization: req.headers.authorization, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (path === "/.well-known/oauth-authorization-server" || path === "/.well-known/openid-configuration")
        return json(200, {
          issuer,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          code_challenge_methods_supported: ["S256"],
        });
      if (path === "/jwks") return json(200, { keys: [] });
      if (path === "/token") return json(200, { access_token: "rogue", token_type: "Bearer" });
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("configured client credentials are pinned to their issuer (issue 27 item 6)", () => {
  const thingsServer = () => {
    const server = createServer({ name: "things", version: "1.0.0" });
    server.tool({ name: "server_time", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    return server;
  };
  const machine = { clientId: clients.machine, clientSecret: secretOf(clients.machine) };

  it("after the server switches to another authorization server, the secret is not sent there", async () => {
    const store = memoryTokenStore();
    const first = await serveHttp(thingsServer(), {
      auth: { issuers: [op.issuer], cacheSeconds: 0, listAllTools: false },
      features: oauthFeature.http,
      log: () => {},
    });
    const port = first.port;
    const client = await connect({ url: first.url, auth: { clientCredentials: machine, tokenStore: store } });
    await client.close();
    await first.close();
    // The same MCP URL now names a rogue authorization server in its resource metadata.
    const rogue = await rogueAuthorizationServer();
    const second = await serveHttp(thingsServer(), {
      port,
      auth: { issuers: [rogue.issuer], cacheSeconds: 0, listAllTools: false },
      features: oauthFeature.http,
      log: () => {},
    });
    try {
      expect(second.url).toBe(first.url);
      await expect(
        connect({ url: second.url, auth: { clientCredentials: machine, tokenStore: store } }),
      ).rejects.toThrow(/the configured client credentials belong to/);
      expect(rogue.seen.filter((request) => request.path === "/token")).toEqual([]);
      expect(JSON.stringify(rogue.seen)).not.toContain(
        Buffer.from(`${machine.clientId}:`).toString("base64").slice(0, 8),
      );
    } finally {
      await second.close();
      await rogue.close();
    }
  });

  it("credentials configured with their issuer are never sent to another one, even on first use", async () => {
    const rogue = await rogueAuthorizationServer();
    const server = await serveHttp(thingsServer(), {
      auth: { issuers: [rogue.issuer], cacheSeconds: 0, listAllTools: false },
      features: oauthFeature.http,
      log: () => {},
    });
    try {
      const auth = { clientCredentials: { ...machine, issuer: op.issuer } };
      await expect(connect({ url: server.url, auth })).rejects.toThrow(/belong to http:\/\/127\.0\.0\.1/);
      expect(rogue.seen.filter((request) => request.path === "/token")).toEqual([]);
    } finally {
      await server.close();
      await rogue.close();
    }
  });
});

describe("step-up on insufficient_scope", () => {
  it("re-authorizes with the union of scopes when a tool needs more, then the call goes through", async () => {
    // A fresh authorization server: the harness grants every scope it has seen asked for.
    const op2 = await startOidcProvider();
    const server = createServer({
      name: "things",
      version: "1.0.0",
      toolGate: scopeGate({
        required: (name) => SCOPES[name],
        listAll: false,
        all: () => ["things:read", "things:write"],
      }),
    });
    server.tool({ name: "write_things", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    server.tool({ name: "read_things", inputSchema: { type: "object" }, handler: () => ({ content: [] }) });
    const mcp2 = await serveHttp(server, {
      auth: { issuers: [op2.issuer], cacheSeconds: 0, listAllTools: false },
      features: oauthFeature.http,
      log: () => {},
    });
    const scopesAsked: string[] = [];
    const loopback = await startLoopbackRedirect({ timeoutMs: 20_000 });
    const client = await connect({
      url: mcp2.url,
      auth: {
        redirectUrl: loopback.redirectUrl,
        scopes: ["things:read"],
        onAuthorizationUrl: async (url) => {
          scopesAsked.push(url.searchParams.get("scope") ?? "");
          return authorize(url, loopback.redirectUrl);
        },
      },
    });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["read_things"]);
      await client.callTool("write_things", {});
      expect(scopesAsked).toHaveLength(2);
      expect(scopesAsked[0].split(" ")).not.toContain("things:write");
      expect(scopesAsked[1].split(" ")).toEqual(expect.arrayContaining(["things:read", "things:write"]));
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["read_things", "write_things"]);
    } finally {
      await client.close();
      await loopback.close();
      await mcp2.close();
      await op2.stop();
    }
  });
});

/** A protected server and authorization server in one, for the refusals the real provider never provokes. */
async function fakeAuthServer(metadata: Record<string, unknown>) {
  const seen: { path: string; authorization?: string }[] = [];
  const server: Server = createHttpServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    seen.push({ path, authorization: req.headers.authorization });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    if (path === "/mcp")
      return json(
        401,
        {},
        { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` },
      );
    if (path === "/.well-known/oauth-protected-resource/mcp")
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (path === "/.well-known/oauth-authorization-server")
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        ...metadata,
      });
    if (path === "/register") return json(201, { client_id: "fake-client" });
    if (path === "/token") return json(200, { access_token: "fake-token", token_type: "Bearer" });
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/mcp`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("refusals", () => {
  it("refuses an authorization server that does not advertise PKCE S256", async () => {
    const fake = await fakeAuthServer({ code_challenge_methods_supported: ["plain"] });
    let asked = false;
    const auth: AuthOptions = {
      redirectUrl: "http://127.0.0.1:1/callback",
      onAuthorizationUrl: async () => {
        asked = true;
        return "http://127.0.0.1:1/callback?code=x";
      },
    };
    try {
      await expect(connect({ url: fake.url, auth })).rejects.toThrow(/does not advertise PKCE S256/);
      expect(asked).toBe(false);
    } finally {
      await fake.close();
    }
  });

  it("ignores an authorization response with the wrong state, and never redeems its code", async () => {
    const fake = await fakeAuthServer({ code_challenge_methods_supported: ["S256"] });
    const auth: AuthOptions = {
      redirectUrl: "http://127.0.0.1:1/callback",
      onAuthorizationUrl: async () => ({ code: "stolen", state: "not-the-one-we-sent" }),
    };
    try {
      await expect(connect({ url: fake.url, auth })).rejects.toThrow(OAuthError);
      expect(fake.seen.some((request) => request.path === "/token")).toBe(false);
      // Nothing but the MCP endpoint could have had a token, and none was sent anywhere.
      expect(fake.seen.every((request) => request.authorization === undefined)).toBe(true);
    } finally {
      await fake.close();
    }
  });
});

describe("endpoints from metadata (issue 27 item 5)", () => {
  const hostile = [
    "javascript:alert(document.domain)",
    "file:///etc/passwd",
    "ms-msdt:/id PCWDiagnostic /skip force /param",
    "smb://attacker.example/share",
    "http://attacker.example/authorize",
    "http://127.0.0.1.nip.io/authorize",
  ];

  it("never opens an authorization endpoint that is not https (or http to this machine)", async () => {
    for (const endpoint of hostile) {
      const fake = await fakeAuthServer({
        code_challenge_methods_supported: ["S256"],
        authorization_endpoint: endpoint,
      });
      const opened: string[] = [];
      const auth: AuthOptions = {
        redirectUrl: "http://127.0.0.1:1/callback",
        onAuthorizationUrl: async (url) => {
          opened.push(url.href);
          return "http://127.0.0.1:1/callback?code=x";
        },
      };
      try {
        await expect(connect({ url: fake.url, auth }), endpoint).rejects.toThrow(
          /authorization_endpoint is not an https URL/,
        );
        expect(opened).toEqual([]);
        // Refused before anything was sent: no registration at a server whose metadata is hostile.
        expect(fake.seen.some((request) => request.path === "/register")).toBe(false);
      } finally {
        await fake.close();
      }
    }
  });

  it("sends nothing to a token or registration endpoint that is not https (or http to this machine)", async () => {
    for (const field of ["token_endpoint", "registration_endpoint"]) {
      const fake = await fakeAuthServer({
        code_challenge_methods_supported: ["S256"],
        [field]: "smb://attacker.example/x",
      });
      const auth: AuthOptions = {
        clientCredentials: { clientId: "machine", clientSecret: "s3cret" },
      };
      try {
        await expect(connect({ url: fake.url, auth }), field).rejects.toThrow(
          new RegExp(`${field} is not an https URL`),
        );
      } finally {
        await fake.close();
      }
    }
  });
});

describe("error responses of the authorization request", () => {
  const refusal = async (query: (state: string) => string) => {
    const fake = await fakeAuthServer({ code_challenge_methods_supported: ["S256"] });
    const auth: AuthOptions = {
      redirectUrl: "http://127.0.0.1:1/callback",
      onAuthorizationUrl: async (url) => `http://127.0.0.1:1/callback?${query(url.searchParams.get("state") ?? "")}`,
    };
    try {
      return await connect({ url: fake.url, auth }).then(
        () => "connected",
        (error: Error) => error.message,
      );
    } finally {
      await fake.close();
    }
  };

  it("state is checked before error: an error without our state is dropped, its text never repeated", async () => {
    const message = await refusal(() => "error=access_denied&error_description=Re-login%20at%20https://evil.example");
    expect(message).toMatch(/wrong state/);
    expect(message).not.toContain("evil.example");
  });

  it("an error with our state names the code, and the description only quoted and when it is RFC 6749 text", async () => {
    expect(await refusal((state) => `state=${state}&error=access_denied&error_description=User%20said%20no`)).toMatch(
      /Authorization refused: access_denied: "User said no"/,
    );
    const forged = await refusal((state) => `state=${state}&error=access_denied&error_description=no%0AError:%20FAKE`);
    expect(forged).toMatch(/Authorization refused: access_denied$/);
    expect(forged).not.toContain("FAKE");
  });
});

describe("a failed login", () => {
  it("rejects connect once, without retrying the login as a 2025-era initialize", async () => {
    const fake = await fakeAuthServer({ code_challenge_methods_supported: ["S256"] });
    let logins = 0;
    const auth: AuthOptions = {
      redirectUrl: "http://127.0.0.1:1/callback",
      onAuthorizationUrl: async () => {
        logins++;
        throw new Error("the user closed the browser");
      },
    };
    try {
      await expect(connect({ url: fake.url, auth })).rejects.toThrow(
        "Authorization failed: the user closed the browser",
      );
      expect(logins).toBe(1);
    } finally {
      await fake.close();
    }
  });
});

describe("loopback redirect helper", () => {
  it("listens on 127.0.0.1, resolves with the redirect it receives, and closes", async () => {
    const loopback = await startLoopbackRedirect();
    expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const waiting = loopback.callback();
    const page = await fetch(`${loopback.redirectUrl}?code=abc&state=xyz`);
    expect(page.status).toBe(200);
    const landed = await waiting;
    expect(landed.searchParams.get("code")).toBe("abc");
    await expect(fetch(loopback.redirectUrl)).rejects.toThrow();
    // The next login listens again on the same port (the registered redirect URL stays valid).
    const again = loopback.callback();
    await fetch(`${loopback.redirectUrl}?code=def&state=uvw`);
    expect((await again).searchParams.get("code")).toBe("def");
    await expect(fetch(loopback.redirectUrl)).rejects.toThrow();
  });

  it("times out when no redirect comes, and closes", async () => {
    const loopback = await startLoopbackRedirect({ timeoutMs: 50 });
    await expect(loopback.callback()).rejects.toThrow(/No authorization redirect within 50 ms/);
    await expect(fetch(loopback.redirectUrl)).rejects.toThrow();
  });
});
