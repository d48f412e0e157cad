// OAuth 2.0 Token Exchange (RFC 8693) for per-user upstream credentials (issue 17): the caller's validated
// MCP access token is the subject token, presented to the configured token endpoint by this server (a
// confidential client), which answers with a token for the upstream's audience. That token, never the MCP
// one, goes upstream. Tokens are cached per incoming MCP token (its SHA-256), audience and scope until
// shortly before they (or the MCP token they came from) expire; the cache is bounded, and concurrent calls
// with one token share one exchange.
import { createHash } from "node:crypto";
import type { UserToken } from "../../package/feature.ts";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { DEFAULT_MAX_BODY_CHARS, describe, discard, readCapped } from "../../upstream/send.ts";

export type TokenExchangeConfig = {
  /** The authorization server's token endpoint (--upstream-token-exchange). */
  tokenEndpoint: string;
  /** The upstream API's audience, sent as `audience` (--upstream-audience). */
  audience: string;
  /** Scopes asked for the upstream token, space-separated (--upstream-scope); unset: the server's default. */
  scope?: string;
  /** This server's client at the authorization server (MCP_UPSTREAM_CLIENT_ID / MCP_UPSTREAM_CLIENT_SECRET). */
  clientId: string;
  clientSecret?: string;
  /** Cached caller tokens at most (default 1000): the least recently used one makes room. */
  maxEntries?: number;
};

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
/** A cached token is dropped this long before it expires, so it is never sent just as it lapses. */
const EARLY_MS = 30_000;
const DEFAULT_LIFETIME_S = 300;

type Entry = { token: string; expires: number };

/** The exchange as the caller's own upstream token (FeatureServerOptions.userToken), for every operation. */
export function exchangedToken(exchange: (principal: AuthPrincipal) => Promise<string>): UserToken {
  return {
    source: "The token exchange (--upstream-token-exchange)",
    bearer: async (ctx) => {
      if (ctx.auth) return exchange(ctx.auth);
      throw new Error(
        "This server exchanges each caller's token for an upstream token (--upstream-token-exchange), but the request carries no validated token: serve over HTTP with --auth-issuer.",
      );
    },
  };
}

/** The exchange function; rejects with a message safe to show the client. */
export function tokenExchanger(config: TokenExchangeConfig): (principal: AuthPrincipal) => Promise<string> {
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<Entry>>();
  const max = Math.max(1, config.maxEntries ?? 1000);
  return async (principal) => {
    // Keyed by the token the caller presented, not its subject: two clients of one user hold different
    // tokens (other scopes, other client), and the authorization server judges each exchange on the token,
    // so one that it refused must never get the upstream token another one was given. A hash, never the token.
    const presented = createHash("sha256").update(principal.token).digest("base64url");
    const key = `${principal.issuer}\0${presented}\0${config.audience}\0${config.scope ?? ""}`;
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) {
      // Map order is insertion order: re-inserting marks the entry most recently used.
      cache.delete(key);
      cache.set(key, cached);
      return cached.token;
    }
    cache.delete(key);
    let running = pending.get(key);
    if (!running) {
      running = exchange(config, principal).finally(() => pending.delete(key));
      pending.set(key, running);
    }
    const entry = await running;
    if (!cache.has(key)) {
      cache.set(key, entry);
      while (cache.size > max) cache.delete(cache.keys().next().value as string);
    }
    return entry.token;
  };
}

async function exchange(config: TokenExchangeConfig, principal: AuthPrincipal): Promise<Entry> {
  const where = URL.canParse(config.tokenEndpoint) ? new URL(config.tokenEndpoint) : undefined;
  const endpoint = where ? where.origin + where.pathname : "the token endpoint";
  const check =
    "check --upstream-token-exchange, MCP_UPSTREAM_CLIENT_ID/MCP_UPSTREAM_CLIENT_SECRET (the client must be allowed the token-exchange grant) and --upstream-audience";
  const fail = (why: string) =>
    new Error(`Token exchange for the upstream API at ${endpoint} failed: ${why}; ${check}.`);
  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: principal.token,
    subject_token_type: ACCESS_TOKEN_TYPE,
    requested_token_type: ACCESS_TOKEN_TYPE,
    audience: config.audience,
  });
  if (config.scope) form.set("scope", config.scope);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  // RFC 6749 §2.3.1: client_secret_basic, id and secret form-encoded first; a public client names itself.
  if (config.clientSecret !== undefined) {
    const pair = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else form.set("client_id", config.clientId);
  let response: Response;
  try {
    response = await fetch(config.tokenEndpoint, {
      method: "POST",
      headers,
      body: form,
      // Shared by every call with this token: one call's cancellation does not cancel it for the others.
      signal: AbortSignal.timeout(30_000),
      // The subject token and the client secret are in this request: a redirect never carries them elsewhere.
      redirect: "manual",
    });
  } catch (error) {
    throw fail(`no answer (${describe(error)})`);
  }
  const read = await readCapped(response, DEFAULT_MAX_BODY_CHARS, false).catch(() => undefined);
  let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    const parsed: unknown = read && !read.cut ? JSON.parse(read.body.toString("utf8")) : undefined;
    if (parsed !== null && typeof parsed === "object") answer = parsed;
  } catch {}
  if (!response.ok) {
    if (!read) discard(response);
    // Only the OAuth error code, and only if it looks like one: a description may echo what was sent.
    const code = typeof answer.error === "string" && /^[\w.-]{1,64}$/.test(answer.error) ? ` (${answer.error})` : "";
    const redirect = response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : "";
    throw fail(`status ${response.status}${code}${redirect}`);
  }
  if (typeof answer.access_token !== "string" || answer.access_token === "")
    throw fail("the answer has no access_token");
  const lifetime =
    typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : DEFAULT_LIFETIME_S;
  let expires = Date.now() + lifetime * 1000 - Math.min(EARLY_MS, (lifetime * 1000) / 2);
  // The upstream token stands for the caller only as long as the caller's own token is valid.
  if (principal.expiresAt !== undefined) expires = Math.min(expires, principal.expiresAt * 1000);
  return { token: answer.access_token, expires };
}
