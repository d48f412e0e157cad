// The OAuth client behind `connect({ url, auth })`: the core's Authorizer (client/transport.ts). The HTTP
// transport asks it for the Authorization header of each request to the MCP server and hands it every
// 401/403; everything else (discovery, registration, the grants, refresh, step-up) happens here. The access
// token only ever goes to the MCP server's URL, as a header.
import type { Authorizer } from "../../../client/transport.ts";
import { authorizeWithCode, chooseClient } from "./auth-code.ts";
import {
  canonicalUrl,
  checkServerEndpoints,
  type Discovered,
  discoverAuthorization,
  discoverServerMetadata,
  parseBearerChallenge,
  type ServerMetadata,
} from "./auth-discovery.ts";
import { clientAssertion, exchangeIdToken, tokenRequest } from "./auth-grants.ts";
import {
  type AuthOptions,
  type ClientCredentialsAuth,
  type EnterpriseAuth,
  memoryTokenStore,
  OAuthError,
  type OAuthTokens,
  type StoredAuth,
  type TokenStore,
} from "./auth-types.ts";

/** Refresh this long before the stated expiry, so a token does not lapse in flight. */
const EXPIRY_MARGIN_MS = 30_000;
// With the first login, at most 3 authorizations per request (the suite counts more than 3 as a loop).
const DEFAULT_MAX_STEP_UPS = 2;

/** The OAuth authorizer for the MCP server at `serverUrl`. */
export function createAuthorizer(serverUrl: URL, options: AuthOptions): Authorizer {
  return new OAuthAuthorizer(serverUrl, options);
}

/** One MCP server's tokens: read from the store on every request, obtained on a 401, widened on a 403. */
class OAuthAuthorizer implements Authorizer {
  private readonly serverUrl: URL;
  private readonly options: AuthOptions;
  private readonly store: TokenStore;
  /** The server's canonical URL: the token store's key, and the resource when its metadata names none. */
  private readonly key: string;
  private readonly maxStepUps: number;
  private state: StoredAuth | undefined;
  private discovered: Discovered | undefined;
  private stepUps = 0;
  private unauthorizedInARow = 0;
  private inFlight: Promise<unknown> | undefined;
  /** The issuer configured credentials were first used with, for a token store that forgets it. */
  private pinnedIssuer: string | undefined;

  constructor(serverUrl: URL, options: AuthOptions) {
    this.serverUrl = serverUrl;
    this.options = options;
    this.store = options.tokenStore ?? memoryTokenStore();
    this.key = canonicalUrl(serverUrl);
    this.maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  }

  succeeded(): void {
    this.stepUps = 0;
    this.unauthorizedInARow = 0;
  }

  /** The header for the next request (refreshing an expired token first), or none yet. */
  authorization(): Promise<string | undefined> {
    return asOAuthError(async () => {
      if (this.inFlight) await this.inFlight.catch(() => {});
      const tokens = (await this.load()).tokens;
      if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) {
        await this.serialized(() => this.refresh());
      }
      const token = this.state?.tokens?.accessToken;
      return token ? `Bearer ${token}` : undefined;
    });
  }

  challenge(response: Response): Promise<boolean> {
    return asOAuthError(async () => {
      const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
      await response.body?.cancel().catch(() => {});
      if (response.status === 403) {
        if (challenge.error !== "insufficient_scope") return false;
        if (++this.stepUps > this.maxStepUps) return false;
        await this.serialized(() => this.obtain(challenge));
        return true;
      }
      if (response.status !== 401) return false;
      // Two refusals right after a fresh login mean the server will not take our tokens: stop.
      if (++this.unauthorizedInARow > 2) {
        this.unauthorizedInARow = 0;
        return false;
      }
      const sent = this.state?.tokens?.accessToken;
      await this.serialized(async () => {
        if (this.state?.tokens?.accessToken !== sent) return; // another request already re-authorized
        if (sent && (await this.refresh())) return;
        await this.obtain(challenge);
      });
      return true;
    });
  }

  // Read on every request, so a store shared with other processes (or edited by the user) is honoured.
  private async load(): Promise<StoredAuth> {
    const loaded: StoredAuth = { ...((await this.store.get(this.key)) ?? {}) };
    this.state = loaded;
    return loaded;
  }

  private async save(next: StoredAuth): Promise<void> {
    this.state = next;
    await this.store.set(this.key, next);
  }

  // One flow at a time: concurrent 401s wait for the same login instead of each starting one.
  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const next = (this.inFlight ?? Promise.resolve()).catch(() => {}).then(run);
    this.inFlight = next;
    return next;
  }

  private async refresh(): Promise<boolean> {
    const current = await this.load();
    if (!current.tokens?.refreshToken || !current.client || !current.issuer) return false;
    const metadata = this.discovered?.metadata ?? (await discoverServerMetadata(current.issuer).catch(() => undefined));
    if (!metadata) return false;
    try {
      checkServerEndpoints(metadata);
      const tokens = await tokenRequest(metadata, current.client, {
        grant_type: "refresh_token",
        refresh_token: current.tokens.refreshToken,
        resource: this.discovered?.resource ?? current.resource ?? this.key,
      });
      await this.save({ ...current, tokens });
      return true;
    } catch {
      await this.save({ ...current, tokens: undefined });
      return false;
    }
  }

  /** A new login for what the challenge asks (a 401's first login, or a 403's wider scopes). */
  private async obtain(challenge: Record<string, string>): Promise<void> {
    const discovered = await discoverAuthorization(this.serverUrl, challenge);
    this.discovered = discovered;
    const { metadata, resource } = discovered;
    const options = this.options;
    const current = await this.load();
    this.pinnedIssuer = checkPinnedIssuer(options, metadata.issuer, this.pinnedIssuer ?? current.issuer);
    // Credentials belong to the authorization server that issued them (the server may have moved).
    const sameIssuer = current.issuer === metadata.issuer;
    const scope = chooseScopes(options, challenge, discovered, sameIssuer ? current.tokens?.scope : undefined);
    if (!("redirectUrl" in options)) {
      // The secret stays in the options; the store only gets the tokens.
      const tokens = await machineTokens(options, metadata, resource, scope);
      await this.save({ issuer: metadata.issuer, resource, tokens });
      return;
    }
    // A stored registration is reused only for the same redirect (a loopback port changes between runs).
    const redirectUrl = String(options.redirectUrl);
    const reusable = sameIssuer && !options.clientId && current.client?.redirectUrl === redirectUrl;
    const client = reusable && current.client ? current.client : await chooseClient(options, metadata);
    await this.save({ issuer: metadata.issuer, resource, client, tokens: undefined });
    const tokens = await authorizeWithCode(options, metadata, client, resource, scope);
    await this.save({ issuer: metadata.issuer, resource, client, tokens });
  }
}

/** Tokens without a user: the client credentials grant, or SEP-990's ID token exchanged for an ID-JAG. */
async function machineTokens(
  options: ClientCredentialsAuth | EnterpriseAuth,
  metadata: ServerMetadata,
  resource: string,
  scope: string | undefined,
): Promise<OAuthTokens> {
  if ("clientCredentials" in options) {
    const { clientId, clientSecret, privateKey, signingAlgorithm } = options.clientCredentials;
    const assertion = privateKey ? await clientAssertion(clientId, metadata.issuer, privateKey, signingAlgorithm) : {};
    const client = { clientId, clientSecret, tokenEndpointAuthMethod: privateKey ? "private_key_jwt" : undefined };
    return tokenRequest(metadata, client, { grant_type: "client_credentials", scope, resource, ...assertion });
  }
  const { idpTokenEndpoint, idpClientId, idToken, clientId, clientSecret } = options.enterprise;
  const assertion = await exchangeIdToken({
    idpTokenEndpoint,
    idpClientId,
    idToken: typeof idToken === "function" ? await idToken() : idToken,
    audience: metadata.issuer,
    resource,
    scope,
  });
  const client = { clientId, clientSecret, tokenEndpointAuthMethod: "client_secret_basic" };
  return tokenRequest(metadata, client, {
    grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    assertion,
    scope,
    resource,
  });
}

/**
 * Scope selection (spec "Scope Selection Strategy"): scopes the user configured (least privilege by
 * choice), else the 401 challenge's, else the PRM's scopes_supported, else none. A 403 step-up adds
 * the challenge's scopes to those already granted.
 */
function chooseScopes(
  options: AuthOptions,
  challenge: Record<string, string>,
  found: Discovered,
  granted: string | undefined,
): string | undefined {
  const configured =
    "clientCredentials" in options
      ? options.clientCredentials.scopes
      : "enterprise" in options
        ? options.enterprise.scopes
        : options.scopes;
  const fromChallenge = challenge.scope?.split(" ").filter(Boolean);
  const stepUp = challenge.error === "insufficient_scope";
  const wanted = new Set<string>(stepUp && granted ? granted.split(" ").filter(Boolean) : []);
  const base = stepUp
    ? [...(configured ?? []), ...(fromChallenge ?? [])]
    : (configured ?? fromChallenge ?? found.prmScopes ?? []);
  for (const scope of base) wanted.add(scope);
  // A refresh token is worth asking for where the server offers one (SEP-2207); never invent the scope.
  if ("redirectUrl" in options && found.metadata.scopes_supported?.includes("offline_access") && wanted.size > 0)
    wanted.add("offline_access");
  return wanted.size > 0 ? [...wanted].join(" ") : undefined;
}

/**
 * Configured client credentials belong to one authorization server: the `issuer` configured with them,
 * else the first one they were used with (`pinned`: the stored issuer). The MCP server names the
 * authorization server, so a compromised or hostile one could otherwise have the secret (or a signed
 * assertion) posted to a token endpoint of its choosing. Returns the issuer to pin.
 */
function checkPinnedIssuer(options: AuthOptions, issuer: string, pinned: string | undefined): string | undefined {
  const configured =
    "clientCredentials" in options
      ? options.clientCredentials
      : "enterprise" in options
        ? options.enterprise
        : options.clientId
          ? options
          : undefined;
  if (!configured) return pinned; // a registration made here (DCR, metadata document) is made again elsewhere
  const owner = configured.issuer ?? pinned;
  if (owner !== undefined && owner !== issuer) {
    throw new OAuthError(
      `The server now names the authorization server ${new URL(issuer).origin}, but the configured client credentials belong to ${owner}; they are not sent elsewhere (set auth's issuer to move them deliberately)`,
    );
  }
  return issuer;
}

/** Whatever breaks a login (the user's callback, the network) is an OAuthError, so nothing mistakes it for an era problem. */
async function asOAuthError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    const wrapped = new OAuthError(`Authorization failed: ${error instanceof Error ? error.message : String(error)}`);
    wrapped.cause = error;
    throw wrapped;
  }
}
