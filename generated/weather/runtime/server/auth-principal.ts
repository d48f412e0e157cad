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
