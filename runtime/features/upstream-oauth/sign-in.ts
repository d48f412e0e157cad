// Each call of an operation that signs in (its security names an authorization code scheme) goes with its
// caller's own API token: read from the vault, refreshed shortly before it expires or after a 401 (one refresh
// per user at a time, across instances), forgotten when the API says invalid_grant. A caller without one is
// sent to sign in: -32042 with a URL elicitation (2025-11-25), an input_required round asking for it (2026-07-28),
// or a tool error with the link for a client without URL elicitation. The link is a page of this server
// (pages.ts), never the API's authorization URL: the page binds the sign-in to this caller.
import { randomBytes } from "node:crypto";
import type { AuthorizationCodeFlow, HttpBinding, UpstreamDefinition } from "../../package/catalog-types.ts";
import type { UserToken } from "../../package/feature.ts";
import { McpError } from "../../protocol/errors.ts";
import { isSecureOrLoopback } from "../../protocol/loopback-url.ts";
import type { ElicitResult } from "../../protocol/types.ts";
import type { HandlerContext } from "../../server/types.ts";
import { CONNECT_PATH, type UpstreamOAuthConfig } from "./config.ts";
import { renewal } from "./renewal.ts";
import type { Vault } from "./vault.ts";

export const URL_ELICITATION_REQUIRED = -32042;
/** How long a sign-in link, and the authorization started from it, stay good. */
export const PENDING_MS = 10 * 60_000;
const INPUT_KEY = "upstream_sign_in";

/** A sign-in waiting for its user at the link: who, what to ask for, where. */
export type Pending = { user: string; label: string; scopes: string[]; authorizationUrl: string; tokenUrl: string };
export type Caller = { key: string; label: string };

/** The MCP caller a token belongs to: the validated OAuth subject, else the 2025-era session (local use). */
export function callerOf(ctx: HandlerContext): Caller | undefined {
  if (ctx.auth) return { key: `oauth\0${ctx.auth.issuer}\0${ctx.auth.subject}`, label: ctx.auth.subject };
  if (ctx.sessionId) return { key: `session\0${ctx.sessionId}`, label: "this MCP session" };
  return undefined;
}

type CodeScheme = { id: string; authorizationCode: AuthorizationCodeFlow };

/** The authorization code scheme a binding's requirements name (the first), if any. */
function schemeOf(upstream: UpstreamDefinition, binding: HttpBinding): CodeScheme | undefined {
  const schemes = upstream.securitySchemes ?? [];
  for (const alternative of binding.security ?? [])
    for (const id of alternative) {
      const scheme = schemes.find((s) => s.id === id);
      if (scheme?.type === "bearer" && scheme.authorizationCode)
        return { id: scheme.id, authorizationCode: scheme.authorizationCode };
    }
  return undefined;
}

export type SignIn = Required<UserToken> & { signOut(ctx: HandlerContext): Promise<boolean> };

export function createSignIn(config: UpstreamOAuthConfig, vault: Vault): SignIn {
  const client = { clientId: config.clientId, ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}) };
  const fresh = renewal(vault, client);

  return {
    source: "The upstream sign-in (upstream-oauth)",
    async bearer(ctx, upstream, binding) {
      const scheme = schemeOf(upstream, binding);
      if (!scheme) return undefined;
      const caller = callerOf(ctx);
      if (!caller)
        throw new Error(
          "This operation calls the API as its caller, who must be known: serve over HTTP with --auth-issuer (or with a 2025-11-25 session).",
        );
      const needed = binding.scopes ?? [];
      const stored = await vault.read(caller.key);
      const grant = stored && (await fresh(caller.key, stored, false));
      if (grant && needed.every((scope) => grant.scopes.includes(scope))) return grant.access;
      // A requirement that needs nothing ([]): the call goes without the user's token rather than asking.
      if (!grant && binding.security?.some((alternative) => alternative.length === 0)) return undefined;
      return ask(config, vault, ctx, caller, scheme, [...new Set([...(grant?.scopes ?? []), ...needed])]);
    },
    async rejected(ctx, signed) {
      const bearer = signed.credentials?.headers.authorization?.replace(/^Bearer /, "");
      const caller = callerOf(ctx);
      if (!caller || !bearer) return false;
      const grant = await vault.read(caller.key);
      if (!grant || grant.access !== bearer) return true; // renewed (or forgotten) meanwhile: try with what is now
      await fresh(caller.key, grant, true);
      return true;
    },
    async signOut(ctx) {
      const caller = callerOf(ctx);
      if (!caller) return false;
      const had = (await vault.read(caller.key)) !== undefined;
      await vault.forget(caller.key);
      return had;
    },
  };
}

/** Sends the caller to sign in: a URL elicitation as the era has it, else a tool error with the link. */
async function ask(
  config: UpstreamOAuthConfig,
  vault: Vault,
  ctx: HandlerContext,
  caller: Caller,
  scheme: CodeScheme,
  scopes: string[],
): Promise<never> {
  const id = randomBytes(24).toString("base64url");
  const { authorizationUrl, tokenUrl } = scheme.authorizationCode;
  // The code, the verifier and the client secret travel to these: over TLS, or on this machine.
  for (const url of [authorizationUrl, tokenUrl])
    if (!isSecureOrLoopback(new URL(url)))
      throw new Error(
        `The API's sign-in URL ${new URL(url).origin} is not https: this server does not sign users in over it.`,
      );
  const pending: Pending = { user: caller.key, label: caller.label, scopes, authorizationUrl, tokenUrl };
  await vault.put("pending", id, pending, PENDING_MS);
  const url = `${config.publicUrl}${CONNECT_PATH}?id=${id}`;
  const api = new URL(authorizationUrl).host;
  const message = `This tool calls ${api} as you. Sign in there once to allow it, then try again.`;
  const elicitation = { mode: "url" as const, message, url, elicitationId: id };
  const takesUrl = ctx.clientCapabilities.elicitation?.url !== undefined;
  if (takesUrl && ctx.era === "legacy")
    throw new McpError(URL_ELICITATION_REQUIRED, `${message} Open ${url}`, { elicitations: [elicitation] });
  if (takesUrl) {
    // 2026: the first run ends here with input_required; its retry, answered, finds the token (above), or not:
    const answers = await ctx.requestInputs({ [INPUT_KEY]: { method: "elicitation/create", params: elicitation } });
    const action = (answers[INPUT_KEY] as ElicitResult | undefined)?.action;
    if (action === "decline" || action === "cancel")
      throw new Error(`You did not sign in to ${api} (${action}), so the call was not made.`);
  }
  throw new Error(
    `Not signed in to ${api} yet: this tool calls it as you. Open this link in a browser, approve access, then call the tool again: ${url}`,
  );
}
