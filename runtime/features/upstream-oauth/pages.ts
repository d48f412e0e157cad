// The sign-in pages: GET /oauth/upstream/connect?id= shows whom the sign-in is for and a button (a form with a
// CSRF token bound to a cookie set here); its POST starts authorization code + PKCE (S256) at the API with a fresh
// `state`; GET /oauth/upstream/callback takes the code back, in the same browser only (the cookie's hash is in the
// flow), once only, and stores the tokens for the MCP user the link was made for. Every text is escaped; the
// pages load nothing, run no script and may not be framed.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../../server/log.ts";
import { CALLBACK_PATH, CONNECT_PATH, type UpstreamOAuthConfig } from "./config.ts";
import { PENDING_MS, type Pending } from "./sign-in.ts";
import { type Client, tokenRequest } from "./token-endpoint.ts";
import type { Vault } from "./vault.ts";

const COOKIE = "mcpgen_upstream";
const MAX_FORM_BYTES = 4096;

/** A flow under way, by its `state`: the pending sign-in, the PKCE verifier, and the browser that started it. */
type Flow = Pending & { verifier: string; browser: string };

/** A page as the HTTP transport serves it (transport/http/http-state.ts Handler). */
type Page = (ctx: { req: IncomingMessage; res: ServerResponse }) => Promise<void>;

type Context = {
  config: UpstreamOAuthConfig;
  vault: Vault;
  secure: boolean;
  csrfOf(cookie: string, id: string): string;
  hash(text: string): string;
  client: Client;
};

export function signInPages(config: UpstreamOAuthConfig, vault: Vault): Record<string, Page> {
  const at: Context = {
    config,
    vault,
    secure: config.publicUrl.startsWith("https:"),
    csrfOf: (cookie, id) => vault.mac(`csrf\0${cookie}\0${id}`),
    hash: (text) => createHash("sha256").update(text).digest("base64url"),
    client: { clientId: config.clientId, ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}) },
  };
  return {
    [CONNECT_PATH]: ({ req, res }) => connect(at, req, res),
    [CALLBACK_PATH]: ({ req, res }) => callback(at, req, res),
  };
}

/** The page a sign-in link opens: whom it is for, and a form (CSRF token bound to its cookie) to continue. */
async function connect(at: Context, req: IncomingMessage, res: ServerResponse) {
  const { config, vault, secure, csrfOf } = at;
  if (req.method === "POST") return start(at, req, res);
  const id = new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "";
  const pending = id ? await vault.peek<Pending>("pending", id) : undefined;
  if (!pending)
    return page(
      res,
      404,
      "Link expired",
      "This sign-in link is unknown or has expired. Call the tool again for a new one.",
    );
  const cookie = cookieOf(req) ?? randomBytes(24).toString("base64url");
  const api = new URL(pending.authorizationUrl).host;
  const cookieLine = `${COOKIE}=${cookie}; Path=/oauth/upstream; HttpOnly; SameSite=Lax; Max-Age=${PENDING_MS / 1000}${secure ? "; Secure" : ""}`;
  const body = `<p>An MCP client asks to call <b>${escapeHtml(api)}</b> as you, for the MCP user <b>${escapeHtml(pending.label)}</b>.</p>
<p>Continue only if you started this yourself: you will sign in at ${escapeHtml(api)} and its tokens will be kept by this server for that user${pending.scopes.length ? `, with the access <code>${escapeHtml(pending.scopes.join(" "))}</code>` : ""}.</p>
<form method="post" action="${escapeHtml(config.publicUrl + CONNECT_PATH)}">
<input type="hidden" name="id" value="${escapeHtml(id)}"><input type="hidden" name="csrf" value="${escapeHtml(csrfOf(cookie, id))}">
<button type="submit">Continue to ${escapeHtml(api)}</button></form>`;
  page(res, 200, `Sign in to ${api}`, body, { "set-cookie": cookieLine }, new URL(pending.authorizationUrl).origin);
}

/** The form posted: checked, used once, and the browser sent to the API with PKCE S256 and a fresh state. */
async function start(at: Context, req: IncomingMessage, res: ServerResponse) {
  const { config, vault, csrfOf, hash } = at;
  const form = await readForm(req);
  const cookie = cookieOf(req);
  const id = form?.get("id") ?? "";
  const csrf = form?.get("csrf") ?? "";
  const origin = req.headers.origin;
  if (!cookie || !id || !same(csrf, csrfOf(cookie, id)) || (origin && origin !== new URL(config.publicUrl).origin))
    return page(res, 403, "Refused", "This request did not come from the sign-in page it names. Open the link again.");
  const pending = await vault.take<Pending>("pending", id);
  if (!pending)
    return page(
      res,
      404,
      "Link expired",
      "This sign-in link was used already or has expired. Call the tool again for a new one.",
    );
  const state = randomBytes(32).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  await vault.put("flow", state, { ...pending, verifier, browser: hash(cookie) } satisfies Flow, PENDING_MS);
  const target = new URL(pending.authorizationUrl);
  target.searchParams.set("response_type", "code");
  target.searchParams.set("client_id", config.clientId);
  target.searchParams.set("redirect_uri", config.redirectUri);
  if (pending.scopes.length) target.searchParams.set("scope", pending.scopes.join(" "));
  target.searchParams.set("state", state);
  target.searchParams.set("code_challenge", createHash("sha256").update(verifier).digest("base64url"));
  target.searchParams.set("code_challenge_method", "S256");
  res.writeHead(303, { location: target.href, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  res.end();
}

/** The API sends the browser back: in the browser that started, once, the code becomes the user's tokens. */
async function callback(at: Context, req: IncomingMessage, res: ServerResponse) {
  const { config, vault, hash, client } = at;
  if (req.method !== "GET") return page(res, 405, "Not allowed", "The sign-in comes back with GET.");
  const query = new URL(req.url ?? "/", "http://x").searchParams;
  const state = query.get("state") ?? "";
  const cookie = cookieOf(req);
  const flow = state && cookie ? await vault.take<Flow>("flow", state) : undefined;
  // The code must come back to the browser that started: a code injected into another's browser binds nothing.
  if (!flow || !cookie || !same(flow.browser, hash(cookie)))
    return page(
      res,
      400,
      "Sign-in not recognised",
      "This answer does not match a sign-in started in this browser, or it was used already. Call the tool again for a new link.",
    );
  const api = new URL(flow.authorizationUrl).host;
  const error = query.get("error");
  const code = query.get("code");
  if (error || !code) {
    const shown = error && /^[\w.-]{1,64}$/.test(error) ? ` (${error})` : "";
    return page(res, 400, "Not signed in", `${api} did not grant access${shown}. Call the tool again to retry.`);
  }
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri: config.redirectUri,
    code_verifier: flow.verifier,
  };
  const answer = await tokenRequest(flow.tokenUrl, form, client, { scopes: flow.scopes });
  if ("error" in answer) {
    log("warn", `upstream sign-in: the token endpoint refused the code (${answer.error})`);
    return page(
      res,
      502,
      "Not signed in",
      `${api} refused to issue tokens (${answer.error}). Call the tool again to retry.`,
    );
  }
  await vault.write(flow.user, answer.grant);
  page(
    res,
    200,
    "Signed in",
    `You are signed in to ${api}. Return to your MCP client and try the call again; you can close this page.`,
  );
}

function page(
  res: ServerResponse,
  status: number,
  title: string,
  body: string,
  headers: Record<string, string> = {},
  formTarget = "",
) {
  // `body` is HTML only where built above (every variable part escaped); else text, escaped here.
  const html = body.startsWith("<") ? body : `<p>${escapeHtml(body)}</p>`;
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTarget}; frame-ancestors 'none'; base-uri 'none'`,
    ...headers,
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}</style></head><body><h1>${escapeHtml(title)}</h1>${html}</body></html>`,
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === COOKIE && value && /^[\w-]{16,64}$/.test(value)) return value;
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "")) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
