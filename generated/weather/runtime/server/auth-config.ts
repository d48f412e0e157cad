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
