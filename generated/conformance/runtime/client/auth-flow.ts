// The OAuth client behind `connect({ url, auth })`. The HTTP transport asks it for the Authorization
// header of each request to the MCP server and hands it every 401/403; everything else (discovery,
// registration, the authorization code + PKCE flow, refresh, step-up) happens here. The access token
// only ever goes to the MCP server's URL, as a header.
import {
  canonicalUrl,
  checkEndpoint,
  checkResource,
  checkServerEndpoints,
  discoverResourceMetadata,
  discoverServerMetadata,
  fallbackServerMetadata,
  parseBearerChallenge,
  type ServerMetadata,
} from "./auth-discovery.ts";
import {
  clientAssertion,
  exchangeIdToken,
  pkcePair,
  randomState,
  registerClient,
  tokenRequest,
} from "./auth-grants.ts";
import { awaitState } from "./auth-loopback.ts";
import {
  type AuthOptions,
  type AuthorizationCallback,
  type InteractiveAuth,
  memoryTokenStore,
  type OAuthClientRegistration,
  OAuthError,
  type StoredAuth,
} from "./auth-types.ts";

/** Refresh this long before the stated expiry, so a token does not lapse in flight. */
const EXPIRY_MARGIN_MS = 30_000;
// With the first login, at most 3 authorizations per request (the suite counts more than 3 as a loop).
const DEFAULT_MAX_STEP_UPS = 2;

type Discovered = { resource: string; metadata: ServerMetadata; prmScopes?: string[] };

export type Authorizer = {
  /** The header for the next request to the MCP server (refreshing an expired token first), or none yet. */
  authorization(): Promise<string | undefined>;
  /** Handles a 401 or 403 from the MCP server; true when the request should be sent again. */
  challenge(response: Response): Promise<boolean>;
  /** A request got through: the retry counters start over. */
  succeeded(): void;
};

export function createAuthorizer(serverUrl: URL, options: AuthOptions): Authorizer {
  const store = options.tokenStore ?? memoryTokenStore();
  const key = canonicalUrl(serverUrl);
  const maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  let state: StoredAuth | undefined;
  let discovered: Discovered | undefined;
  let stepUps = 0;
  let unauthorizedInARow = 0;
  let inFlight: Promise<unknown> | undefined;
  // The issuer configured credentials were first used with, for a token store that forgets it.
  let pinnedIssuer: string | undefined;

  // Read on every request, so a store shared with other processes (or edited by the user) is honoured.
  const load = async () => {
    state = { ...((await store.get(key)) ?? {}) };
    return state;
  };
  const save = async (next: StoredAuth) => {
    state = next;
    await store.set(key, next);
  };
  // One flow at a time: concurrent 401s wait for the same login instead of each starting one.
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const next = (inFlight ?? Promise.resolve()).catch(() => {}).then(run);
    inFlight = next;
    return next;
  };

  const discover = async (challenge: Record<string, string>): Promise<Discovered> => {
    const found = await discoverAuthorizationServer(challenge);
    checkServerEndpoints(found.metadata);
    return found;
  };

  const discoverAuthorizationServer = async (challenge: Record<string, string>): Promise<Discovered> => {
    const named = challenge.resource_metadata;
    if (named !== undefined)
      checkEndpoint(
        URL.canParse(named, serverUrl.href) ? new URL(named, serverUrl).href : named,
        "challenge's resource_metadata",
      );
    const prm = await discoverResourceMetadata(serverUrl, challenge.resource_metadata);
    if (!prm) {
      // A 2025-03-26 server: it is its own authorization server.
      const origin = serverUrl.origin;
      return {
        resource: key,
        metadata: (await discoverServerMetadata(origin, true)) ?? fallbackServerMetadata(serverUrl),
      };
    }
    const resource = checkResource(serverUrl, prm);
    const issuer = prm.authorization_servers?.[0];
    if (!issuer) throw new OAuthError(`The protected resource metadata of ${key} names no authorization server`);
    checkEndpoint(issuer, "authorization server the protected resource metadata names");
    const metadata = await discoverServerMetadata(issuer);
    if (!metadata) throw new OAuthError(`No authorization server metadata found for ${issuer}`);
    return { resource, metadata, prmScopes: prm.scopes_supported };
  };

  /**
   * Scope selection (spec "Scope Selection Strategy"): scopes the user configured (least privilege by
   * choice), else the 401 challenge's, else the PRM's scopes_supported, else none. A 403 step-up adds
   * the challenge's scopes to those already granted.
   */
  const chooseScopes = (
    challenge: Record<string, string>,
    found: Discovered,
    granted: string | undefined,
  ): string | undefined => {
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
  };

  const refresh = async (): Promise<boolean> => {
    const current = await load();
    if (!current.tokens?.refreshToken || !current.client || !current.issuer) return false;
    const metadata = discovered?.metadata ?? (await discoverServerMetadata(current.issuer).catch(() => undefined));
    if (!metadata) return false;
    try {
      checkServerEndpoints(metadata);
      const tokens = await tokenRequest(metadata, current.client, {
        grant_type: "refresh_token",
        refresh_token: current.tokens.refreshToken,
        resource: discovered?.resource ?? current.resource ?? key,
      });
      await save({ ...current, tokens });
      return true;
    } catch {
      await save({ ...current, tokens: undefined });
      return false;
    }
  };

  const obtain = async (challenge: Record<string, string>): Promise<void> => {
    discovered = await discover(challenge);
    const { metadata, resource } = discovered;
    const current = await load();
    pinnedIssuer = checkPinnedIssuer(options, metadata.issuer, pinnedIssuer ?? current.issuer);
    // Credentials belong to the authorization server that issued them (the server may have moved).
    const sameIssuer = current.issuer === metadata.issuer;
    const granted = sameIssuer ? current.tokens?.scope : undefined;
    const scope = chooseScopes(challenge, discovered, granted);
    if ("clientCredentials" in options) {
      const { clientId, clientSecret, privateKey, signingAlgorithm } = options.clientCredentials;
      const assertion = privateKey
        ? await clientAssertion(clientId, metadata.issuer, privateKey, signingAlgorithm)
        : {};
      const client = { clientId, clientSecret, tokenEndpointAuthMethod: privateKey ? "private_key_jwt" : undefined };
      const tokens = await tokenRequest(metadata, client, {
        grant_type: "client_credentials",
        scope,
        resource,
        ...assertion,
      });
      // The secret stays in the options; the store only gets the tokens.
      await save({ issuer: metadata.issuer, resource, tokens });
      return;
    }
    if ("enterprise" in options) {
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
      const tokens = await tokenRequest(metadata, client, {
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion,
        scope,
        resource,
      });
      await save({ issuer: metadata.issuer, resource, tokens });
      return;
    }
    // A stored registration is reused only for the same redirect (a loopback port changes between runs).
    const redirectUrl = String(options.redirectUrl);
    const reusable = sameIssuer && !options.clientId && current.client?.redirectUrl === redirectUrl;
    const client = reusable && current.client ? current.client : await chooseClient(options, metadata);
    await save({ issuer: metadata.issuer, resource, client, tokens: undefined });
    const tokens = await authorizeWithCode(options, metadata, client, resource, scope);
    await save({ issuer: metadata.issuer, resource, client, tokens });
  };

  return {
    succeeded() {
      stepUps = 0;
      unauthorizedInARow = 0;
    },
    async authorization() {
      if (inFlight) await inFlight.catch(() => {});
      const current = await load();
      const tokens = current.tokens;
      if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) {
        await serialized(refresh);
      }
      const token = state?.tokens?.accessToken;
      return token ? `Bearer ${token}` : undefined;
    },
    async challenge(response) {
      const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
      await response.body?.cancel().catch(() => {});
      if (response.status === 403) {
        if (challenge.error !== "insufficient_scope") return false;
        if (++stepUps > maxStepUps) return false;
        await serialized(() => obtain(challenge));
        return true;
      }
      if (response.status !== 401) return false;
      // Two refusals right after a fresh login mean the server will not take our tokens: stop.
      if (++unauthorizedInARow > 2) {
        unauthorizedInARow = 0;
        return false;
      }
      const sent = state?.tokens?.accessToken;
      await serialized(async () => {
        if (state?.tokens?.accessToken !== sent) return; // another request already re-authorized
        if (sent && (await refresh())) return;
        await obtain(challenge);
      });
      return true;
    },
  };
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

/** Spec order: a pre-registered client, else a Client ID Metadata Document, else Dynamic Client Registration. */
async function chooseClient(options: InteractiveAuth, metadata: ServerMetadata): Promise<OAuthClientRegistration> {
  if (options.clientId) return { clientId: options.clientId, clientSecret: options.clientSecret };
  if (options.clientMetadataUrl && metadata.client_id_metadata_document_supported === true) {
    return {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: "none",
      redirectUrl: String(options.redirectUrl),
    };
  }
  if (metadata.registration_endpoint) {
    const registered = await registerClient(
      metadata,
      String(options.redirectUrl),
      options.clientName ?? "mcpgen client",
    );
    return { ...registered, redirectUrl: String(options.redirectUrl) };
  }
  throw new OAuthError(
    `The authorization server ${metadata.issuer} supports neither client metadata documents (or none was configured) nor dynamic registration; configure auth.clientId`,
  );
}

async function authorizeWithCode(
  options: InteractiveAuth,
  metadata: ServerMetadata,
  client: OAuthClientRegistration,
  resource: string,
  scope: string | undefined,
) {
  if (!metadata.authorization_endpoint) throw new OAuthError(`${metadata.issuer} has no authorization endpoint`);
  // OAuth 2.1 / MCP: PKCE with S256; an authorization server that does not say it supports S256 is refused.
  if (!metadata.code_challenge_methods_supported?.includes("S256")) {
    throw new OAuthError(
      `${metadata.issuer} does not advertise PKCE S256 (code_challenge_methods_supported); refusing`,
    );
  }
  const pkce = pkcePair();
  const expectedState = randomState();
  const redirectUri = String(options.redirectUrl);
  const url = new URL(metadata.authorization_endpoint);
  const query: Record<string, string | undefined> = {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    state: expectedState,
    resource,
    scope,
  };
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  const stopWaiting = awaitState(redirectUri, expectedState);
  let callback: AuthorizationCallback;
  try {
    callback = await options.onAuthorizationUrl(url);
  } finally {
    stopWaiting();
  }
  const answer = readCallback(callback);
  // State first: a response without our state is not from our login (any local page can reach a loopback
  // redirect), so nothing else in it, an error text least of all, is believed or repeated.
  if (answer.state !== expectedState) throw new OAuthError("Authorization response has the wrong state; ignoring it");
  if (answer.error) throw new OAuthError(`Authorization refused: ${describeRefusal(answer)}`);
  // RFC 9207: iss is compared byte for byte whenever present, and required where the server promises it.
  if (
    answer.iss !== undefined
      ? answer.iss !== metadata.issuer
      : metadata.authorization_response_iss_parameter_supported === true
  ) {
    throw new OAuthError(`Authorization response issuer ${answer.iss ?? "(missing)"} is not ${metadata.issuer}`);
  }
  if (!answer.code) throw new OAuthError("Authorization response has no code");
  return tokenRequest(metadata, client, {
    grant_type: "authorization_code",
    code: answer.code,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
    resource,
  }).then((tokens) => ({ ...tokens, scope: tokens.scope ?? scope }));
}

// RFC 6749 §4.1.2.1: `error` and `error_description` are printable ASCII without quote and backslash; anything else is
// left out, and the description is quoted and cut, so the authorization server's text cannot pose as ours.
const ERROR_TEXT = /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/;

function describeRefusal(answer: CallbackParts): string {
  const code = answer.error && /^[\w.-]{1,64}$/.test(answer.error) ? answer.error : "(an invalid error code)";
  const text = answer.errorDescription;
  return text && ERROR_TEXT.test(text) ? `${code}: ${JSON.stringify(text.slice(0, 200))}` : code;
}

type CallbackParts = { code?: string; state?: string; iss?: string; error?: string; errorDescription?: string };

function readCallback(callback: AuthorizationCallback): CallbackParts {
  if (typeof callback === "object" && !(callback instanceof URL)) return callback;
  const params = new URL(String(callback)).searchParams;
  const get = (name: string) => params.get(name) ?? undefined;
  return {
    code: get("code"),
    state: get("state"),
    iss: get("iss"),
    error: get("error"),
    errorDescription: get("error_description"),
  };
}
