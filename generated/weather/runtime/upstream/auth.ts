// Credentials for upstream requests, read from environment variables at call time. Every secret used is
// recorded so error excerpts can be redacted before anyone sees them. One path for both front ends: the
// spec language's `upstream.auth` arrives as a security scheme every binding requires, like OpenAPI's.

import type { SecurityScheme } from "../package/catalog-types.ts";
import { setOwn } from "../protocol/own-keys.ts";
import { DEFAULT_MAX_BODY_CHARS, discard, readCapped } from "./body.ts";
import { describe } from "./send.ts";
import type { Outgoing, UpstreamConfig } from "./types.ts";

const envOf = (scheme: SecurityScheme) =>
  scheme.type === "oauth2" ? [scheme.clientIdEnv, scheme.clientSecretEnv] : [scheme.env];

/** Uses the first security alternative whose variables are all set; `[]` means no credentials needed. */
export async function applySecurity(
  upstream: UpstreamConfig,
  alternatives: string[][],
  out: Outgoing,
  env: NodeJS.ProcessEnv,
  secrets: string[],
  signal: AbortSignal,
): Promise<void> {
  const schemes = new Map((upstream.securitySchemes ?? []).map((s) => [s.id, s]));
  const resolved = alternatives.map((ids) => ids.map((id) => schemes.get(id)).filter((s) => s !== undefined));
  const usable = resolved.find((list) => list.every((s) => envOf(s).every((name) => env[name])));
  if (!usable) {
    const wanted = [...new Set(resolved.flatMap((list) => list.flatMap(envOf)))].join(" or ");
    throw new Error(`set ${wanted}: the upstream API needs credentials for this operation`);
  }
  for (const scheme of usable) {
    if (scheme.type === "oauth2") {
      const token = await clientCredentialsToken(scheme, env, signal);
      secrets.push(token);
      out.headers.authorization = `Bearer ${token}`;
      continue;
    }
    const secret = env[scheme.env] as string;
    secrets.push(secret);
    if (scheme.type === "bearer") out.headers.authorization = `Bearer ${secret}`;
    else if (scheme.type !== "apiKey") out.headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
    else if (scheme.in === "header") setOwn(out.headers, scheme.name.toLowerCase(), secret);
    else if (scheme.in === "query") out.url.searchParams.set(scheme.name, secret);
    else out.cookies.push(`${scheme.name}=${encodeURIComponent(secret)}`);
  }
}

const tokens = new Map<string, { token: string; expires: number }>();

/** OAuth2 client credentials (RFC 6749 §4.4), cached until a minute before the token expires. */
async function clientCredentialsToken(
  scheme: Extract<SecurityScheme, { type: "oauth2" }>,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<string> {
  const id = env[scheme.clientIdEnv] as string;
  const secret = env[scheme.clientSecretEnv] as string;
  const key = `${scheme.tokenUrl}\0${id}`;
  const cached = tokens.get(key);
  if (cached && cached.expires > Date.now()) return cached.token;
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (scheme.scopes?.length) form.set("scope", scheme.scopes.join(" "));
  const where = URL.canParse(scheme.tokenUrl) ? new URL(scheme.tokenUrl) : undefined;
  const fail = (why: string) =>
    new Error(`OAuth2 token request to ${where ? where.origin + where.pathname : "the token URL"} failed: ${why}`);
  let response: Response;
  try {
    response = await fetch(scheme.tokenUrl, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form,
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
      // The client secret is in the Authorization header: never let a redirect carry it elsewhere.
      redirect: "manual",
    });
  } catch (error) {
    throw fail(`no answer (${describe(error)})`);
  }
  if (!response.ok) {
    discard(response);
    throw fail(
      `status ${response.status}${response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : ""}`,
    );
  }
  // A token answer is small; a hostile token URL cannot make us read more than the usual cap.
  const read = await readCapped(response, DEFAULT_MAX_BODY_CHARS, false).catch(() => undefined);
  let answer: { access_token?: unknown; expires_in?: unknown } = {};
  try {
    const parsed: unknown = read && !read.cut ? JSON.parse(read.body.toString("utf8")) : undefined;
    if (parsed !== null && typeof parsed === "object") answer = parsed;
  } catch {}
  if (typeof answer.access_token !== "string") throw fail("the answer has no access_token");
  const lifetime = typeof answer.expires_in === "number" ? answer.expires_in : 3600;
  tokens.set(key, { token: answer.access_token, expires: Date.now() + Math.max(0, lifetime - 60) * 1000 });
  return answer.access_token;
}
