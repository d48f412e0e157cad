// Who made a request, as the `oauth` feature's token validation established it (issue 17), and the OAuth
// resource-server settings the HTTP transport reads (the feature makes them from --auth-issuer and friends).

/** The authenticated caller of an HTTP request whose bearer token the server validated. */
export type AuthPrincipal = {
  /** The token's `sub` (or the introspection answer's): the key for per-user caches and session binding. */
  subject: string;
  /** The scopes the token grants (`scope` split on spaces, or `scp`). */
  scopes: readonly string[];
  /** Every validated claim, as the issuer wrote them. */
  claims: Readonly<Record<string, unknown>>;
  issuer: string;
  /** `client_id` or `azp`, when the token says. */
  clientId?: string;
  /** `exp`, in seconds since the epoch. */
  expiresAt?: number;
  /** The validated MCP token, only for a token exchange (RFC 8693) to present as the subject token: never
   * forwarded upstream (the MCP authorization spec forbids token passthrough) and never logged. */
  token: string;
};

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
