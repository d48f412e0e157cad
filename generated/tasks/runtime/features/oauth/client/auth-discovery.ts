// Discovery for the OAuth client: the MCP server's Protected Resource Metadata (RFC 9728) and its
// authorization server's metadata (RFC 8414, then OpenID Connect Discovery), in the order the MCP
// authorization spec gives. No request here carries the access token.
import { isSecureOrLoopback } from "../../../protocol/loopback-url.ts";
import { OAuthError } from "./auth-types.ts";

export type ResourceMetadata = { resource?: string; authorization_servers?: string[]; scopes_supported?: string[] };

export type ServerMetadata = {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
};

/** The parameters of a `WWW-Authenticate: Bearer ...` challenge (quoted or token values). */
export function parseBearerChallenge(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  if (!header || !/^\s*bearer\b/i.test(header)) return params;
  const pattern = /([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (const match of header.replace(/^\s*bearer\s*/i, "").matchAll(pattern)) {
    params[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "");
  }
  return params;
}

async function getJson(url: URL | string): Promise<{ status: number; body?: Record<string, unknown> }> {
  const response = await fetch(url, { headers: { Accept: "application/json" }, redirect: "error" }).catch(
    () => undefined,
  );
  if (!response) return { status: 0 };
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status };
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  return {
    status: response.status,
    body: body && typeof body === "object" ? (body as Record<string, unknown>) : undefined,
  };
}

/** Inserts `/.well-known/<name>` between origin and path (RFC 8414 §3.1 / RFC 9728 §3.1). */
function wellKnown(base: URL, name: string, withPath: boolean): URL {
  const path = base.pathname.replace(/\/+$/, "");
  return new URL(`/.well-known/${name}${withPath ? path : ""}`, base.origin);
}

/** The PRM: from the challenge's `resource_metadata`, else the path-suffixed well-known URL, else the root one. */
export async function discoverResourceMetadata(
  serverUrl: URL,
  challengeUrl: string | undefined,
): Promise<ResourceMetadata | undefined> {
  const candidates = challengeUrl
    ? [new URL(challengeUrl, serverUrl)]
    : [
        ...(serverUrl.pathname.replace(/\/+$/, "") !== ""
          ? [wellKnown(serverUrl, "oauth-protected-resource", true)]
          : []),
        wellKnown(serverUrl, "oauth-protected-resource", false),
      ];
  for (const url of candidates) {
    const { body } = await getJson(url);
    if (body) return body as ResourceMetadata;
  }
  return undefined;
}

/** The `resource` a PRM names must be this server (same origin, a prefix of its path), else it is not ours. */
export function checkResource(serverUrl: URL, metadata: ResourceMetadata): string {
  const canonical = canonicalUrl(serverUrl);
  if (metadata.resource === undefined) return canonical;
  let named: URL;
  try {
    named = new URL(metadata.resource);
  } catch {
    throw new OAuthError(`The protected resource metadata names an invalid resource: ${metadata.resource}`);
  }
  const prefix = named.pathname.endsWith("/") ? named.pathname : `${named.pathname}/`;
  const path = serverUrl.pathname.endsWith("/") ? serverUrl.pathname : `${serverUrl.pathname}/`;
  if (named.origin !== serverUrl.origin || !path.startsWith(prefix)) {
    throw new OAuthError(
      `The protected resource metadata is for ${metadata.resource}, not for ${canonical}; refusing to authorize`,
    );
  }
  return metadata.resource;
}

/** The server URL as an RFC 8707 resource: no fragment, no query. */
export function canonicalUrl(url: URL): string {
  const copy = new URL(url);
  copy.hash = "";
  copy.search = "";
  return copy.href;
}

/**
 * Authorization server metadata: RFC 8414 then OIDC discovery (path-inserted, then path-appended for an
 * issuer with a path). The document's `issuer` must equal the issuer we asked about (RFC 8414 §3.3).
 * `legacy`: a 2025-03-26 server without resource metadata is its own authorization server and we only
 * guessed its issuer (the origin), so an issuer on the same origin is accepted (conformance 0.1.16's
 * backcompat scenario names `<origin>/oauth`).
 */
export async function discoverServerMetadata(issuer: string, legacy = false): Promise<ServerMetadata | undefined> {
  const base = new URL(issuer);
  const hasPath = base.pathname.replace(/\/+$/, "") !== "";
  const candidates = hasPath
    ? [
        wellKnown(base, "oauth-authorization-server", true),
        wellKnown(base, "openid-configuration", true),
        new URL(`${base.href.replace(/\/+$/, "")}/.well-known/openid-configuration`),
      ]
    : [wellKnown(base, "oauth-authorization-server", false), wellKnown(base, "openid-configuration", false)];
  for (const url of candidates) {
    const { body } = await getJson(url);
    if (!body) continue;
    if (body.issuer !== issuer && !(legacy && sameOrigin(body.issuer, issuer))) {
      throw new OAuthError(
        `Authorization server metadata at ${url.href} names issuer ${String(body.issuer)}, not ${issuer}; not using it`,
      );
    }
    if (typeof body.token_endpoint !== "string") {
      throw new OAuthError(`Authorization server metadata at ${url.href} has no token_endpoint`);
    }
    return body as ServerMetadata;
  }
  return undefined;
}

const ENDPOINTS = ["issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint"] as const;

/**
 * Every URL the client takes from metadata (a hostile MCP or authorization server writes it) must be https,
 * or http to this machine: the authorization endpoint is opened in the user's browser or OS (a `file:`,
 * `javascript:`, `ms-msdt:` or `smb:` URL there runs or leaks something, CVE-2025-6514's class), and the
 * others receive codes, secrets and tokens. Throws naming the field; the URL's text is not repeated.
 */
export function checkEndpoint(value: unknown, what: string): void {
  if (value === undefined) return;
  const url = typeof value === "string" && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !isSecureOrLoopback(url)) {
    const scheme = url && /^[a-z][a-z0-9+.-]{0,20}:$/.test(url.protocol) ? ` (${url.protocol})` : "";
    throw new OAuthError(`The ${what} is not an https URL (or http to this machine)${scheme}; refusing to use it`);
  }
}

/** The endpoints of authorization server metadata, each held to checkEndpoint. */
export function checkServerEndpoints(metadata: ServerMetadata): void {
  for (const field of ENDPOINTS) checkEndpoint(metadata[field], `authorization server's ${field}`);
}

/** 2025-03-26 servers without metadata: the MCP server's origin is the authorization server, default paths. */
export function fallbackServerMetadata(serverUrl: URL): ServerMetadata {
  const origin = serverUrl.origin;
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ["S256"],
  };
}

function sameOrigin(named: unknown, issuer: string): boolean {
  try {
    return typeof named === "string" && new URL(named).origin === new URL(issuer).origin;
  } catch {
    return false;
  }
}

/** Where a protected server's tokens come from: its resource, its authorization server's metadata, its scopes. */
export type Discovered = { resource: string; metadata: ServerMetadata; prmScopes?: string[] };

/**
 * The authorization server of the MCP server at `serverUrl`, from its RFC 9728 metadata (the challenge's
 * `resource_metadata`, else the well-known URLs), every endpoint held to checkEndpoint.
 */
export async function discoverAuthorization(serverUrl: URL, challenge: Record<string, string>): Promise<Discovered> {
  const found = await discoverAuthorizationServer(serverUrl, challenge);
  checkServerEndpoints(found.metadata);
  return found;
}

async function discoverAuthorizationServer(serverUrl: URL, challenge: Record<string, string>): Promise<Discovered> {
  const named = challenge.resource_metadata;
  if (named !== undefined)
    checkEndpoint(
      URL.canParse(named, serverUrl.href) ? new URL(named, serverUrl).href : named,
      "challenge's resource_metadata",
    );
  const prm = await discoverResourceMetadata(serverUrl, challenge.resource_metadata);
  if (!prm) {
    // A 2025-03-26 server: it is its own authorization server.
    return {
      resource: canonicalUrl(serverUrl),
      metadata: (await discoverServerMetadata(serverUrl.origin, true)) ?? fallbackServerMetadata(serverUrl),
    };
  }
  const resource = checkResource(serverUrl, prm);
  const issuer = prm.authorization_servers?.[0];
  if (!issuer)
    throw new OAuthError(`The protected resource metadata of ${canonicalUrl(serverUrl)} names no authorization server`);
  checkEndpoint(issuer, "authorization server the protected resource metadata names");
  const metadata = await discoverServerMetadata(issuer);
  if (!metadata) throw new OAuthError(`No authorization server metadata found for ${issuer}`);
  return { resource, metadata, prmScopes: prm.scopes_supported };
}
