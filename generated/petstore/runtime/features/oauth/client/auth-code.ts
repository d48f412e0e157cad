// A user's login (authorization code + PKCE S256): which client id to use, the authorization URL, and the
// checks on the redirect the browser came back with (state first, then error, issuer, code).
import type { ServerMetadata } from "./auth-discovery.ts";
import { pkcePair, randomState, registerClient, tokenRequest } from "./auth-grants.ts";
import { awaitState } from "./auth-loopback.ts";
import {
  type AuthorizationCallback,
  type InteractiveAuth,
  type OAuthClientRegistration,
  OAuthError,
  type OAuthTokens,
} from "./auth-types.ts";

/** Spec order: a pre-registered client, else a Client ID Metadata Document, else Dynamic Client Registration. */
export async function chooseClient(
  options: InteractiveAuth,
  metadata: ServerMetadata,
): Promise<OAuthClientRegistration> {
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

/** Shows the authorization URL (`onAuthorizationUrl`), checks the redirect, and trades its code for tokens. */
export async function authorizeWithCode(
  options: InteractiveAuth,
  metadata: ServerMetadata,
  client: OAuthClientRegistration,
  resource: string,
  scope: string | undefined,
): Promise<OAuthTokens> {
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
