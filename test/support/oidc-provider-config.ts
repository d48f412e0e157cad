// The oidc-provider options of the test authorization server, in one place (issue 17). Another helper adds a
// grant (e.g. RFC 8693 token exchange) through `configure`/`configuration` in OidcProviderOptions, not by
// editing this file; what is here is what every auth test relies on.
import type { OidcConfiguration, OidcContext } from "oidc-provider";

/** Client ids the harness registers statically; secrets are `<id>-secret`. */
export const clients = {
  /** client_credentials, JWT access tokens. */
  machine: "mcp-machine",
  /** client_credentials, opaque access tokens (for introspection tests). */
  opaque: "mcp-opaque",
  /** The resource server itself: authenticates to the introspection endpoint. */
  resourceServer: "mcp-resource-server",
  /** A public (PKCE) native client for the authorization code flow; any loopback redirect port. */
  app: "mcp-app",
} as const;

export const secretOf = (clientId: string): string => `${clientId}-secret`;

/** What getResourceServerInfo reads; mutable so a test can pick TTL/format per token it mints. */
export type TokenPolicy = {
  ttlSeconds: number;
  /** Scopes any resource server accepts: every scope a request ever asked for (so tests may invent scopes). */
  seenScopes: Set<string>;
  /** Clients whose tokens are opaque (introspection) rather than JWT. */
  opaqueClients: Set<string>;
  /** The one-shot TTL of the next token, set by mintToken({ ttlSeconds }). */
  nextTtlSeconds?: number;
};

const oidcScopes = new Set(["openid", "offline_access", "profile", "email"]);

export function buildConfiguration(
  jwks: { keys: object[] },
  policy: TokenPolicy,
  extraClients: object[],
): OidcConfiguration {
  const resourceScope = (ctx: OidcContext): string => {
    const asked = String(ctx.oidc.params?.scope ?? "").split(" ");
    for (const scope of asked) if (scope && !oidcScopes.has(scope)) policy.seenScopes.add(scope);
    return [...policy.seenScopes].join(" ");
  };
  return {
    jwks,
    clients: [
      {
        client_id: clients.machine,
        client_secret: secretOf(clients.machine),
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: clients.opaque,
        client_secret: secretOf(clients.opaque),
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: clients.resourceServer,
        client_secret: secretOf(clients.resourceServer),
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: clients.app,
        application_type: "native",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: ["http://127.0.0.1/callback"],
      },
      ...extraClients,
    ],
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // One granted resource is the default at the token endpoint (MCP clients should still send it).
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx: OidcContext, resource: string, client: { clientId: string }) => {
          const ttl = policy.nextTtlSeconds ?? policy.ttlSeconds;
          policy.nextTtlSeconds = undefined;
          const opaque = policy.opaqueClients.has(client.clientId);
          return {
            audience: resource,
            scope: resourceScope(ctx),
            accessTokenTTL: ttl,
            accessTokenFormat: opaque ? "opaque" : "jwt",
            ...(opaque ? {} : { jwt: { sign: { alg: "RS256" } } }),
          };
        },
      },
    },
    // Refresh tokens for every client allowed the grant, without demanding offline_access.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    pkce: { required: () => true },
    ttl: {
      AccessToken: policy.ttlSeconds,
      ClientCredentials: policy.ttlSeconds,
      RefreshToken: 3600,
      Grant: 3600,
      Session: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
      IdToken: 300,
    },
    conformIdTokenClaims: false,
    cookies: { keys: ["oidc-test-cookie-key"] },
    scopes: ["openid", "offline_access"],
    claims: { openid: ["sub"] },
    renderError: async (ctx: { type: string; body: unknown }, out: Record<string, unknown>) => {
      ctx.type = "json";
      ctx.body = out;
    },
  };
}
