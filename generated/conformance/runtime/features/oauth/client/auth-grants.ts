// Requests to an authorization server's token and registration endpoints: code exchange, refresh,
// client credentials (RFC 6749), Dynamic Client Registration (RFC 7591), PKCE S256 (RFC 7636).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import type { ServerMetadata } from "./auth-discovery.ts";
import { type OAuthClientRegistration, OAuthError, type OAuthTokens } from "./auth-types.ts";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash("sha256").update(verifier).digest()) };
}

export function randomState(): string {
  return base64url(randomBytes(24));
}

/** Registers with DCR; `application_type` native for loopback redirects (SEP-837), web otherwise. */
export async function registerClient(
  metadata: ServerMetadata,
  redirectUrl: string,
  clientName: string,
): Promise<OAuthClientRegistration> {
  if (!metadata.registration_endpoint) throw new OAuthError("The authorization server offers no registration");
  const host = new URL(redirectUrl).hostname;
  const native =
    host === "127.0.0.1" ||
    host === "localhost" ||
    host === "[::1]" ||
    !/^https?:$/.test(new URL(redirectUrl).protocol);
  const response = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: native ? "native" : "web",
    }),
  });
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof body?.client_id !== "string") {
    throw new OAuthError(`Dynamic client registration failed: HTTP ${response.status} ${describeError(body)}`);
  }
  return {
    clientId: body.client_id,
    clientSecret: typeof body.client_secret === "string" ? body.client_secret : undefined,
    tokenEndpointAuthMethod:
      typeof body.token_endpoint_auth_method === "string" ? body.token_endpoint_auth_method : undefined,
  };
}

/** An RFC 7523 `private_key_jwt` client assertion: iss = sub = client id, aud = the issuer, short-lived. */
export async function clientAssertion(
  clientId: string,
  issuer: string,
  privateKeyPem: string,
  algorithm = "ES256",
): Promise<Record<string, string>> {
  const key = await importPKCS8(privateKeyPem, algorithm);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: algorithm, typ: "JWT" })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(issuer)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);
  return { client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", client_assertion: jwt };
}

/** Picks how a client with a secret authenticates: what it registered with, else basic, else post. */
function authMethod(client: OAuthClientRegistration, metadata: ServerMetadata): string {
  if (client.tokenEndpointAuthMethod) return client.tokenEndpointAuthMethod;
  if (!client.clientSecret) return "none";
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes("client_secret_basic")) return "client_secret_basic";
  return supported.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
}

/** POSTs a grant to the token endpoint with the client's authentication; returns the tokens. */
export async function tokenRequest(
  metadata: ServerMetadata,
  client: OAuthClientRegistration,
  params: Record<string, string | undefined>,
): Promise<OAuthTokens> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) form.set(key, value);
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Accept: "application/json",
  };
  const method = authMethod(client, metadata);
  if (method === "client_secret_basic" && client.clientSecret !== undefined) {
    // RFC 6749 §2.3.1: both parts form-urlencoded before base64.
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    form.set("client_id", client.clientId);
    if (method === "client_secret_post" && client.clientSecret !== undefined)
      form.set("client_secret", client.clientSecret);
  }
  const response = await fetch(metadata.token_endpoint, { method: "POST", headers, body: form, redirect: "error" });
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof body?.access_token !== "string") {
    throw new OAuthError(`Token request (${params.grant_type}) failed: HTTP ${response.status} ${describeError(body)}`);
  }
  if (typeof body.token_type === "string" && body.token_type.toLowerCase() !== "bearer") {
    throw new OAuthError(`The authorization server issued a ${body.token_type} token; only Bearer is supported`);
  }
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : params.refresh_token,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
    scope: typeof body.scope === "string" ? body.scope : params.scope,
  };
}

function describeError(body: Record<string, unknown> | undefined): string {
  if (!body || typeof body.error !== "string") return "";
  return typeof body.error_description === "string" ? `${body.error}: ${body.error_description}` : body.error;
}

/** SEP-990 step 1: the IdP exchanges the user's ID token for an ID-JAG naming the authorization server and resource. */
export async function exchangeIdToken(options: {
  idpTokenEndpoint: string;
  idpClientId: string;
  idToken: string;
  audience: string;
  resource: string;
  scope?: string;
}): Promise<string> {
  const form = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: options.audience,
    resource: options.resource,
    subject_token: options.idToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: options.idpClientId,
  });
  if (options.scope) form.set("scope", options.scope);
  const response = await fetch(options.idpTokenEndpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: form,
    redirect: "error",
  });
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof body?.access_token !== "string") {
    throw new OAuthError(
      `Token exchange at the identity provider failed: HTTP ${response.status} ${describeError(body)}`,
    );
  }
  return body.access_token;
}
