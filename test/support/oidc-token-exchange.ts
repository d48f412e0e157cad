// RFC 8693 OAuth 2.0 Token Exchange as a grant of the test authorization server (oidc-provider 8.8.1, which
// has none built in), for the per-user upstream credentials tests (issue 17). oidc-provider authenticates the
// client and parses the form; this grant checks the subject token (a JWT this issuer signed, not expired,
// `subject_token_type` access_token) and answers with a new access token for the requested audience, signed
// with the issuer's current key, with the subject's `sub` and the exchanging client as `act`. Every exchange
// is recorded so tests can count them.
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import type Provider from "oidc-provider";
import { errors } from "oidc-provider";
import type { OidcTestProvider } from "./oidc-provider.ts";
import { secretOf } from "./oidc-provider-config.ts";

export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";

/** The client allowed the grant: the MCP server authenticates as it (client_secret_basic). */
export const exchangeClient = {
  client_id: "mcp-upstream-exchanger",
  client_secret: secretOf("mcp-upstream-exchanger"),
  grant_types: [TOKEN_EXCHANGE],
  response_types: [],
  redirect_uris: [],
};

export type Exchange = { subject: string; audience: string; clientId: string; issued: string };

export type TokenExchangeGrant = {
  /** For OidcProviderOptions.configure. */
  configure(provider: Provider): void;
  /** Binds the grant to the started provider (its keys sign and verify). */
  attach(oidc: OidcTestProvider): void;
  exchanges: Exchange[];
  /** Lifetime of issued tokens, in seconds (default 300). */
  ttlSeconds: number;
};

type GrantContext = {
  oidc: { params: Record<string, string | undefined>; client: { clientId: string } };
  body?: unknown;
};

export function tokenExchangeGrant(): TokenExchangeGrant {
  let oidc: OidcTestProvider | undefined;
  const grant: TokenExchangeGrant = {
    exchanges: [],
    ttlSeconds: 300,
    attach(started) {
      oidc = started;
    },
    configure(provider) {
      provider.registerGrantType(
        TOKEN_EXCHANGE,
        async (raw, next) => {
          const ctx = raw as GrantContext;
          const { subject_token, subject_token_type, audience, scope } = ctx.oidc.params;
          if (!oidc) throw new errors.InvalidRequest("token exchange grant not attached");
          if (!subject_token || subject_token_type !== ACCESS_TOKEN)
            throw new errors.InvalidRequest("subject_token with subject_token_type access_token is required");
          if (!audience) throw new errors.InvalidTarget("audience is required");
          let sub: string;
          try {
            const { payload } = await jwtVerify(subject_token, createLocalJWKSet(oidc.publicJwks()), {
              issuer: oidc.issuer,
            });
            sub = String(payload.sub);
          } catch {
            throw new errors.InvalidGrant("subject_token is invalid or expired");
          }
          const clientId = ctx.oidc.client.clientId;
          const issued = await oidc.signToken(
            { sub, aud: audience, client_id: clientId, act: { sub: clientId }, ...(scope ? { scope } : {}) },
            { expiresIn: grant.ttlSeconds },
          );
          grant.exchanges.push({ subject: sub, audience, clientId, issued });
          ctx.body = {
            access_token: issued,
            issued_token_type: ACCESS_TOKEN,
            token_type: "Bearer",
            expires_in: grant.ttlSeconds,
          };
          await next();
        },
        ["subject_token", "subject_token_type", "requested_token_type", "audience", "resource", "scope"],
      );
    },
  };
  return grant;
}

/** The `aud` and `sub` of a token the upstream received, to tell the exchanged token from the MCP one. */
export const claimsOf = (token: string): { aud?: unknown; sub?: unknown } => decodeJwt(token);
