// Who made a request, as the OAuth layer established it (issue 17). The one type shared by the HTTP
// transport that validates tokens, the handler context, and the per-user upstream credentials hook.

/** The authenticated caller of an HTTP request whose bearer token the server validated. */
export type AuthPrincipal = {
  /** The token's `sub` claim (or the introspection answer's), the key for per-user caches and session binding. */
  subject: string;
  /** The scopes the token grants (`scope` claim split on spaces, or `scp`). */
  scopes: readonly string[];
  /** Every validated claim, as the issuer wrote them. */
  claims: Readonly<Record<string, unknown>>;
  /** The issuer that signed the token. */
  issuer: string;
  /** The OAuth client the token was issued to (`client_id` or `azp`), when the token says. */
  clientId?: string;
  /** When the token expires, in seconds since the epoch (`exp`). */
  expiresAt?: number;
  /**
   * The validated MCP access token itself. It exists only so a token exchange (RFC 8693) can present it as
   * the subject token to the authorization server; it is never forwarded to the upstream API (the MCP
   * authorization spec forbids token passthrough) and never logged.
   */
  token: string;
};

// The OAuth resource-server settings of a generated HTTP server (issue 17), as the transport reads them. The
// `oauth` feature makes them from --auth-issuer and friends (runtime/features/oauth/auth-flags.ts).

export type AuthConfig = {
  /** Authorization servers whose tokens are accepted (a token's `iss` must be one of them). */
  issuers: string[];
  /** The resource the tokens must be issued for (RFC 8707); default: the server's own /mcp URL. */
  audience?: string;
  /** Where the signing keys are; default: `jwks_uri` from each issuer's RFC 8414 / OIDC metadata. */
  jwksUrl?: string;
  /** RFC 7662 introspection for opaque tokens, with this server's client credentials. */
  introspection?: { url: string; clientId: string; clientSecret: string };
  /** How long an introspection answer is reused, in seconds (default 30; 0: never). */
  cacheSeconds: number;
  /** List every tool whatever the token's scopes (calls are still checked). */
  listAllTools: boolean;
};
