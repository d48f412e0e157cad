// Upstream credentials: per user (issue 17: the src/credentials.ts hook, or token-exchange.ts) as headers, which
// are all the forwarding sees of the caller, refused when they hold the MCP token; else the spec's, from env.
import type { HttpBinding, SecurityScheme } from "../package/catalog-types.ts";
import { setOwn } from "../protocol/codec.ts";
import { log } from "../server/log.ts";
import type { HandlerContext } from "../server/types.ts";
import { DEFAULT_MAX_BODY_CHARS, describe, discard, readCapped } from "./send.ts";
import type { Outgoing, UpstreamCall, UpstreamConfig } from "./types.ts";

/** What a credentials hook returns for one call: a bearer token, headers of your own (an API key...), or both.
 * `undefined` leaves it to --upstream-token-exchange if set, else the spec's env-based credentials; `{}`: none. */
export type UpstreamCredentials = { bearer?: string; headers?: Readonly<Record<string, string>> };

/** The hook of a package's src/credentials.ts: the upstream auth for the caller of this request. */
export type CredentialsHook<Context extends HandlerContext = HandlerContext> = (
  ctx: Context,
) => UpstreamCredentials | undefined | Promise<UpstreamCredentials | undefined>;

/** An error whose message a hook means the client to read ("link your account at ..."); any other error
 * reaches the client as a generic message, since its text may hold a secret. */
export class CredentialsError extends Error {
  override name = "CredentialsError";
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the request itself owns: a hook setting them would break the request, not authenticate it. */
const RESERVED = new Set(["host", "content-length", "content-type", "transfer-encoding", "connection", "cookie"]);

/** The hook's credentials, else the caller's own token (a feature's: token exchange, upstream sign-in), else
 * `undefined` (the spec's apply); throws a safe Error. */
export async function resolveCredentials<Context extends HandlerContext>(
  ctx: Context,
  hook: CredentialsHook<Context> | undefined,
  own?: { source: string; bearer: () => Promise<string | undefined> },
): Promise<UpstreamCall["credentials"]> {
  const mcpToken = ctx.auth?.token;
  if (hook) {
    let given: UpstreamCredentials | undefined;
    try {
      given = await hook(ctx);
    } catch (error) {
      if (error instanceof CredentialsError) throw new Error(`Upstream credentials: ${error.message}`);
      // The operator's log gets the cause (without the caller's token); the client a message with no secret.
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      log("error", `credentials hook failed: ${mcpToken ? cause.split(mcpToken).join("[REDACTED]") : cause}`);
      throw new Error(
        "The upstream credentials hook (src/credentials.ts) failed, so the call was not sent; the server's log names the cause.",
      );
    }
    if (given !== undefined && given !== null)
      return checked(given, mcpToken, "The upstream credentials hook (src/credentials.ts)");
  }
  const bearer = own && (await own.bearer());
  return bearer ? checked({ bearer }, mcpToken, own.source) : undefined;
}

function checked(given: UpstreamCredentials, mcpToken: string | undefined, source: string) {
  const headers: Record<string, string> = {};
  const refuse = (why: string): never => {
    throw new Error(`${source} returned ${why}; the call was not sent.`);
  };
  if (typeof given !== "object") refuse("something other than { bearer } or { headers } or undefined");
  if (given.bearer !== undefined) {
    if (typeof given.bearer !== "string" || given.bearer === "")
      refuse("a bearer token that is not a non-empty string");
    headers.authorization = `Bearer ${given.bearer}`;
  }
  for (const [name, value] of Object.entries(given.headers ?? {})) {
    if (!HEADER_NAME.test(name)) refuse(`a header name that is not a valid HTTP token (${JSON.stringify(name)})`);
    if (RESERVED.has(name.toLowerCase())) refuse(`the header ${name}, which the request itself sets`);
    if (typeof value !== "string" || /[\r\n\0]/.test(value)) refuse(`a value for ${name} that is not one line of text`);
    Object.defineProperty(headers, name.toLowerCase(), { value, enumerable: true, writable: true });
  }
  const secrets = Object.values(headers).flatMap((value) => [value, value.replace(/^(Bearer|Basic)\s+/i, "")]);
  // The MCP authorization spec: the server MUST NOT pass the token it received through to the upstream.
  if (mcpToken && secrets.some((value) => value.includes(mcpToken)))
    refuse("the caller's MCP access token, which must never be sent upstream (token passthrough is forbidden)");
  return { headers, secrets };
}

// The spec's credentials (spec-language `upstream.auth` too), read from env per call; secrets recorded for redaction.
const envOf = (scheme: SecurityScheme) =>
  scheme.type === "oauth2" ? [scheme.clientIdEnv, scheme.clientSecretEnv] : [scheme.env];

/** Each security alternative (scheme ids) as the schemes the upstream defines. */
function schemesOf(upstream: UpstreamConfig, alternatives: string[][]): SecurityScheme[][] {
  const schemes = new Map((upstream.securitySchemes ?? []).map((s) => [s.id, s]));
  return alternatives.map((ids) => ids.map((id) => schemes.get(id)).filter((s) => s !== undefined));
}
/** The variables each alternative reads ("A and B or C"); on a 401/403 the hint says them (else the hook). */
function wanted(resolved: SecurityScheme[][]): string {
  const sets = resolved.map((list) => list.flatMap(envOf).join(" and "));
  return [...new Set(sets.filter(Boolean))].join(" or ");
}
export function authHint(upstream: UpstreamConfig, binding: HttpBinding, call: UpstreamCall): string {
  if (call.credentials) return "\nThe per-user credentials (src/credentials.ts, token exchange) were refused.";
  const set = wanted(schemesOf(upstream, binding.security ?? []));
  if (set) return `\nThis operation's credentials come from ${set}: check that they are set and valid.`;
  return "\nNo credentials were sent: return them from src/credentials.ts (the package README's Authentication section).";
}

/** Uses the first security alternative whose variables are all set; `[]` means no credentials needed. */
export async function applySecurity(
  upstream: UpstreamConfig,
  alternatives: string[][],
  out: Outgoing,
  env: NodeJS.ProcessEnv,
  secrets: string[],
  signal: AbortSignal,
): Promise<void> {
  const resolved = schemesOf(upstream, alternatives);
  const usable = resolved.find((list) => list.every((s) => envOf(s).every((name) => env[name])));
  if (!usable) throw new Error(`set ${wanted(resolved)}: the upstream API needs credentials for this operation`);
  for (const scheme of usable) {
    const oauth2 = scheme.type === "oauth2";
    const secret = oauth2 ? await clientCredentialsToken(scheme, env, signal) : (env[scheme.env] as string);
    secrets.push(secret);
    if (oauth2 || scheme.type === "bearer") out.headers.authorization = `Bearer ${secret}`;
    else if (scheme.type !== "apiKey") out.headers.authorization = `Basic ${Buffer.from(secret).toString("base64")}`;
    else if (scheme.in === "header") setOwn(out.headers, scheme.name.toLowerCase(), secret);
    else if (scheme.in === "query") out.url.searchParams.set(scheme.name, secret);
    else out.cookies.push(`${scheme.name}=${encodeURIComponent(secret)}`);
  }
}

const tokens = new Map<string, { token: string; expires: number }>();
type OAuth2Scheme = Extract<SecurityScheme, { type: "oauth2" }>;

/** OAuth2 client credentials (RFC 6749 §4.4), cached until a minute before the token expires. */
async function clientCredentialsToken(scheme: OAuth2Scheme, env: NodeJS.ProcessEnv, signal: AbortSignal) {
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
  const response = await fetch(scheme.tokenUrl, {
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
  }).catch((error: unknown) => {
    throw fail(`no answer (${describe(error)})`);
  });
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
