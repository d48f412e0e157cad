// The feature's settings from its flags and env (flags.ts): on over HTTP once MCP_UPSTREAM_CLIENT_ID is set,
// unless that id serves the token exchange (--upstream-token-exchange) instead.
import { randomBytes } from "node:crypto";
import type { FeatureInput, SharedStore } from "../../package/feature.ts";
import { isSecureOrLoopback } from "../../protocol/loopback-url.ts";

export type UpstreamOAuthConfig = {
  clientId: string;
  clientSecret?: string;
  key: Buffer; // AES-256-GCM for stored tokens, and the HMAC of keys and CSRF tokens
  publicUrl: string; // the server's external origin (and path prefix), without a trailing slash
  redirectUri: string;
  shared?: SharedStore; // the redis feature's store: every instance sees the same tokens
};

export const CALLBACK_PATH = "/oauth/upstream/callback";
export const CONNECT_PATH = "/oauth/upstream/connect";

/** The configuration; undefined when the feature is off; a string is the usage error. */
export function upstreamOAuthConfig({ values, given, http, env, earlier }: FeatureInput) {
  const clientId = env.MCP_UPSTREAM_CLIENT_ID || undefined;
  if (!http || clientId === undefined || earlier.server?.userToken) return undefined;
  // A whole set (flags.ts): its flag as given, else its env twin.
  const flag = typeof given["public-url"] === "string" ? given["public-url"] : undefined;
  const named = flag !== undefined ? "--public-url" : "MCP_PUBLIC_URL";
  const stated = flag ?? (env.MCP_PUBLIC_URL || undefined);
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const text = stated ?? `http://${shown}:${(values.port as number | undefined) ?? 3000}`;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  // Users' browsers carry the API's authorization codes here: over TLS, or to this machine.
  if (!url || !isSecureOrLoopback(url) || url.search || url.hash || url.username)
    return `${named} must be the server's external https URL (or http on localhost), without query or credentials, not '${text}'`;
  const publicUrl = url.href.replace(/\/+$/, "");
  const hex = env.MCP_UPSTREAM_TOKEN_KEY || undefined;
  if (hex !== undefined && !/^[0-9a-fA-F]{64}$/.test(hex))
    return "MCP_UPSTREAM_TOKEN_KEY must be 64 hex characters (a 256-bit key: `openssl rand -hex 32`)";
  const shared = earlier.server?.sharedStore;
  if (shared && hex === undefined)
    return "MCP_UPSTREAM_TOKEN_KEY is needed with a shared store (--session-store): every instance must read the users' tokens (`openssl rand -hex 32`)";
  if (shared && !shared.claim) return "the shared store cannot claim keys, which the upstream sign-in needs";
  const clientSecret = env.MCP_UPSTREAM_CLIENT_SECRET || undefined;
  return {
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    key: hex !== undefined ? Buffer.from(hex, "hex") : randomBytes(32),
    publicUrl,
    redirectUri: `${publicUrl}${CALLBACK_PATH}`,
    ...(shared ? { shared } : {}),
  } satisfies UpstreamOAuthConfig;
}
