// An OAuth-protected upstream for the per-user upstream OAuth tests (issue 34): a small authorization server
// (authorization code + PKCE S256 with an exact redirect URI, refresh tokens, revocation of a user's grant)
// and, on another origin, an API that accepts only its access tokens and answers who they belong to. The
// consent page is a form the test's "browser" posts with the user it logs in as.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Code = { user: string; scope: string; challenge: string; redirectUri: string };
type Access = { user: string; scope: string; expires: number };

export type UpstreamOAuthApi = {
  authorizationUrl: string;
  tokenUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Every token the authorization server issued (access and refresh), for leak checks. */
  issued: string[];
  /** Token requests by grant type, and the API's requests with the user each token stood for. */
  grants: { type: string; user?: string }[];
  calls: { path: string; token: string; user?: string; status: number }[];
  /** Access tokens issued from now on live this long. */
  setTtl(seconds: number): void;
  /** Revokes a user's grant: their refresh and access tokens stop working. */
  revoke(user: string): void;
  /** Ends a user's access tokens only (as if they expired early): a refresh still works. */
  expireAccess(user: string): void;
  close(): Promise<void>;
};

export async function startUpstreamOAuthApi(redirectUri: () => string): Promise<UpstreamOAuthApi> {
  const clientId = "mcp-upstream-client";
  const clientSecret = randomBytes(16).toString("hex");
  const codes = new Map<string, Code>();
  const access = new Map<string, Access>();
  const refresh = new Map<string, { user: string; scope: string }>();
  let ttl = 3600;
  const issued: string[] = [];
  const grants: UpstreamOAuthApi["grants"] = [];
  const calls: UpstreamOAuthApi["calls"] = [];
  const token = () => {
    const value = randomBytes(24).toString("base64url");
    issued.push(value);
    return value;
  };
  const mint = (user: string, scope: string, refreshToken?: string) => {
    const value = token();
    access.set(value, { user, scope, expires: Date.now() + ttl * 1000 });
    const r = refreshToken ?? token();
    refresh.set(r, { user, scope });
    return { access_token: value, token_type: "bearer", expires_in: ttl, refresh_token: r, scope };
  };

  const as = await listen(async (req, res, url) => {
    if (url.pathname === "/authorize" && req.method === "GET") {
      const q = url.searchParams;
      if (q.get("client_id") !== clientId || q.get("redirect_uri") !== redirectUri())
        return send(res, 400, "text/plain", "unknown client or redirect_uri");
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("state"))
        return send(res, 400, "text/plain", "PKCE S256 and state are required");
      const hidden = [...q].map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/"/g, "&quot;")}">`);
      return send(
        res,
        200,
        "text/html",
        `<form method="post" action="/authorize">${hidden.join("")}<input name="user"></form>`,
      );
    }
    if (url.pathname === "/authorize" && req.method === "POST") {
      const form = new URLSearchParams(await body(req));
      const user = form.get("user") ?? "";
      const code = randomBytes(16).toString("base64url");
      codes.set(code, {
        user,
        scope: form.get("scope") ?? "",
        challenge: form.get("code_challenge") ?? "",
        redirectUri: form.get("redirect_uri") ?? "",
      });
      const back = new URL(redirectUri());
      back.searchParams.set("code", code);
      back.searchParams.set("state", form.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = new URLSearchParams(await body(req));
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret)
        return json(res, 401, { error: "invalid_client" });
      const type = form.get("grant_type") ?? "";
      if (type === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri"))
          return json(res, 400, { error: "invalid_grant" });
        grants.push({ type, user: code.user });
        return json(res, 200, mint(code.user, code.scope));
      }
      if (type === "refresh_token") {
        const held = refresh.get(form.get("refresh_token") ?? "");
        grants.push({ type, ...(held ? { user: held.user } : {}) });
        if (!held) return json(res, 400, { error: "invalid_grant" });
        // A little slow, as real ones are: concurrent calls would each refresh without the single flight.
        await new Promise((resolve) => setTimeout(resolve, 150));
        return json(res, 200, mint(held.user, held.scope, form.get("refresh_token") ?? undefined));
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    send(res, 404, "text/plain", "not found");
  });

  const api = await listen(async (req, res, url) => {
    const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const held = access.get(presented);
    const ok = held !== undefined && held.expires > Date.now();
    calls.push({ path: url.pathname, token: presented, ...(held ? { user: held.user } : {}), status: ok ? 200 : 401 });
    if (!ok) return json(res, 401, { message: "Bad credentials" });
    json(res, 200, { login: held.user, scope: held.scope });
  });

  return {
    authorizationUrl: `${as.url}/authorize`,
    tokenUrl: `${as.url}/token`,
    apiUrl: api.url,
    clientId,
    clientSecret,
    issued,
    grants,
    calls,
    setTtl: (seconds) => {
      ttl = seconds;
    },
    revoke: (user) => {
      for (const [k, v] of refresh) if (v.user === user) refresh.delete(k);
      for (const [k, v] of access) if (v.user === user) access.delete(k);
    },
    expireAccess: (user) => {
      for (const [k, v] of access) if (v.user === user) access.delete(k);
    },
    close: async () => {
      await Promise.all([as.close(), api.close()]);
    },
  };
}

type Handle = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<unknown>;

async function listen(handle: Handle): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void handle(req, res, new URL(req.url ?? "/", "http://x")).catch(() => send(res, 500, "text/plain", "error"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, type: string, text: string) {
  res.writeHead(status, { "content-type": type });
  res.end(text);
}

function json(res: ServerResponse, status: number, value: unknown) {
  send(res, status, "application/json", JSON.stringify(value));
}

/**
 * A browser following a sign-in link: the server's page (its cookie, its form), the authorization server's
 * consent form (logged in as `user`), and the redirect back to the callback, whose page it returns.
 */
export async function signInAs(link: string, user: string): Promise<{ status: number; page: string }> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = pair.split("=", 2);
      jar.set(name.trim(), value);
    }
  };
  const page = await fetch(link, { headers: { cookie: cookie() } });
  keep(page);
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, page: html };
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? link;
  const started = await fetch(action.replace(/&#38;/g, "&"), {
    method: "POST",
    headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded", origin: new URL(link).origin },
    body: new URLSearchParams({ id: field("id"), csrf: field("csrf") }),
    redirect: "manual",
  });
  if (started.status !== 303) return { status: started.status, page: await started.text() };
  const consent = await fetch(started.headers.get("location") ?? "");
  const form = await consent.text();
  if (consent.status !== 200) return { status: consent.status, page: form };
  const fields = new URLSearchParams(
    [...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&quot;/g, '"')]),
  );
  fields.set("user", user);
  const authorizeUrl = new URL("/authorize", started.headers.get("location") ?? "").href;
  const approved = await fetch(authorizeUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: fields,
    redirect: "manual",
  });
  const back = await fetch(approved.headers.get("location") ?? "", { headers: { cookie: cookie() } });
  return { status: back.status, page: await back.text() };
}

/** An OpenAPI document of the API: one operation, GET /user, that needs the caller's own token (read:user). */
export const accountsDocument = (api: UpstreamOAuthApi) => ({
  openapi: "3.1.0",
  info: { title: "Accounts", version: "1.0.0" },
  servers: [{ url: api.apiUrl }],
  components: {
    securitySchemes: {
      accounts: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: api.authorizationUrl,
            tokenUrl: api.tokenUrl,
            scopes: { "read:user": "read the profile" },
          },
        },
      },
    },
  },
  paths: {
    "/user": {
      get: {
        operationId: "getMe",
        summary: "Who the API thinks you are",
        security: [{ accounts: ["read:user"] }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
});
