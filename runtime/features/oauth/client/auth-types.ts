// The OAuth options a client passes to `connect({ url, auth })`, and what it stores between runs.
// The flow itself is in auth-flow.ts; discovery in auth-discovery.ts.
import { AuthorizationError } from "../../../client/transport.ts";

/** Tokens from the authorization server, with the absolute time they expire (ms since epoch). */
export type OAuthTokens = {
  accessToken: string;
  refreshToken?: string;
  /** Absent when the server did not say (then the token is used until a 401). */
  expiresAt?: number;
  /** The scopes granted (or requested, when the server did not echo them). */
  scope?: string;
};

/** A client registration at one authorization server (from DCR, a metadata document URL, or configuration). */
export type OAuthClientRegistration = {
  clientId: string;
  clientSecret?: string;
  /** "client_secret_basic" | "client_secret_post" | "none" (RFC 7591 token_endpoint_auth_method). */
  tokenEndpointAuthMethod?: string;
  /** The redirect URL it was registered with (DCR, CIMD): another one means registering again. */
  redirectUrl?: string;
};

/** What a token store keeps per MCP server: tokens and the registration, both bound to the issuer that made them. */
export type StoredAuth = {
  issuer?: string;
  /** The RFC 8707 resource the tokens were issued for (refresh asks for the same). */
  resource?: string;
  tokens?: OAuthTokens;
  client?: OAuthClientRegistration;
};

/**
 * Where tokens live between requests (and, with a persistent store, between runs). The key is the MCP
 * server's canonical URL. Values hold secrets: a persistent store should be readable by its user only.
 */
export type TokenStore = {
  get(key: string): StoredAuth | undefined | Promise<StoredAuth | undefined>;
  set(key: string, value: StoredAuth): void | Promise<void>;
};

/** An in-memory token store: the default, forgotten when the process ends. */
export function memoryTokenStore(): TokenStore {
  const entries = new Map<string, StoredAuth>();
  return {
    get: (key) => entries.get(key),
    set: (key, value) => {
      entries.set(key, value);
    },
  };
}

/**
 * Where the browser landed after the user consented: the full redirect URL (preferred: the client reads
 * `code`, `state`, `iss` and `error` from it), or its parts.
 */
export type AuthorizationCallback = URL | string | { code: string; state: string; iss?: string };

/** Authorization code + PKCE for a user: the client opens `onAuthorizationUrl`'s URL and awaits the redirect. */
export type InteractiveAuth = {
  /** Where the authorization server sends the browser back (e.g. a loopback URL from `startLoopbackRedirect`). */
  redirectUrl: string | URL;
  /** Show or open the authorization URL; resolve with the redirect it came back on. */
  onAuthorizationUrl: (url: URL) => Promise<AuthorizationCallback>;
  /** Default: in memory. */
  tokenStore?: TokenStore;
  /** A client id registered beforehand (used when the server offers neither metadata documents nor DCR, or always when set). */
  clientId?: string;
  /** With `clientId`, for a confidential client. */
  clientSecret?: string;
  /**
   * The issuer `clientId`/`clientSecret` were registered at. They are never sent to another authorization
   * server; unset, they are pinned to the first one used with them (kept in the token store).
   */
  issuer?: string;
  /** An https URL serving this client's Client ID Metadata Document; used as client_id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for; default: the server's challenge, else its metadata's scopes_supported, else none. */
  scopes?: string[];
  /** Name shown on the consent screen (DCR `client_name`); default "mcpgen client". */
  clientName?: string;
  /** How often a request is re-authorized for more scopes before giving up (default 2). */
  maxStepUps?: number;
};

/**
 * OAuth client credentials grant, for machine clients without a user: a client secret (sent with HTTP
 * Basic, or in the form where the server only takes client_secret_post), or a private key (PKCS#8 PEM)
 * signing a `private_key_jwt` assertion (RFC 7523).
 */
export type ClientCredentialsAuth = {
  clientCredentials: {
    clientId: string;
    clientSecret?: string;
    privateKey?: string;
    /** The assertion's JWS algorithm (default ES256). */
    signingAlgorithm?: string;
    scopes?: string[];
    /** The issuer these credentials belong to; unset: the first one used with them (see InteractiveAuth.issuer). */
    issuer?: string;
  };
  tokenStore?: TokenStore;
  maxStepUps?: number;
};

/**
 * Enterprise-managed authorization (SEP-990, an MCP extension): the user's ID token from the company's
 * identity provider is exchanged there (RFC 8693) for an identity assertion grant (ID-JAG) aimed at the MCP
 * server's authorization server, which trades it for an access token (RFC 7523 JWT bearer grant). No browser.
 */
export type EnterpriseAuth = {
  enterprise: {
    /** The identity provider's token endpoint, and this client's id there. */
    idpTokenEndpoint: string;
    idpClientId: string;
    /** The user's OpenID Connect ID token (or a function fetching a fresh one). */
    idToken: string | (() => Promise<string>);
    /** This client's credentials at the MCP server's authorization server (client_secret_basic). */
    clientId: string;
    clientSecret: string;
    scopes?: string[];
    /** The issuer clientId/clientSecret belong to; unset: the first one used with them (see InteractiveAuth.issuer). */
    issuer?: string;
  };
  tokenStore?: TokenStore;
  maxStepUps?: number;
};

export type AuthOptions = InteractiveAuth | ClientCredentialsAuth | EnterpriseAuth;

/**
 * An authorization failure the client cannot recover from by itself (no retry will help). The core's
 * AuthorizationError, so the client does not mistake it for an older server and fall back.
 */
export class OAuthError extends AuthorizationError {
  constructor(message: string) {
    super(message);
    this.name = "OAuthError";
  }
}
