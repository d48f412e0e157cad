// The HTTP client transport's seam for authorization. The core itself sends only a static bearer token
// (`HttpTarget.bearerToken`); anything that logs in (OAuth: runtime/features/oauth/client/) implements
// `Authorizer` and is passed as `HttpTarget.authorizer`, so the core carries no login code and no jose.

/** Asked by the HTTP transport around each POST to the MCP server's URL (and only that URL). */
export type Authorizer = {
  /** The Authorization header for the next request, or none yet. */
  authorization(): Promise<string | undefined>;
  /**
   * The server answered 401, or 403 with `insufficient_scope` in WWW-Authenticate: true when the same
   * request should be sent again (credentials were obtained or refreshed), false to give up.
   */
  challenge(response: Response): Promise<boolean>;
  /** A request got through (any other status): retry counters start over. */
  succeeded?(): void;
};

/** A failure to authorize: rejects the request or `connect()`, never read as a sign of an older server. */
export class AuthorizationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthorizationError";
  }
}

/** Anything an authorizer throws becomes an AuthorizationError (its own subclasses pass through unchanged). */
export async function asAuthorizationError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    const wrapped = new AuthorizationError(
      `Authorization failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    wrapped.cause = error;
    throw wrapped;
  }
}

/**
 * `connect({ url, auth })` in a package generated without the oauth feature: the one line that says how
 * to get it (worded as a server flag's missing feature is).
 */
export const AUTH_NEEDS_OAUTH =
  "connect({ url, auth }) needs the 'oauth' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again";
