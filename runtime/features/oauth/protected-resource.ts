// The HTTP server as an OAuth 2.1 protected resource (issue 17; MCP basic/authorization): RFC 9728
// metadata at /.well-known/oauth-protected-resource (and its path-suffixed form), bearer tokens read from
// the Authorization header only, 401/400/503 with `WWW-Authenticate: Bearer resource_metadata="..."`, and
// the 403 `insufficient_scope` step-up challenge. Loaded only when --auth-issuer is set.

import type { IncomingMessage } from "node:http";
import type { AuthConfig } from "../../server/auth-principal.ts";
import type { ProtectedResource, ProtectedResourceOptions } from "../../transport/http/http-features.ts";
import { headerLineCount } from "../../transport/http/raw-headers.ts";
import type { Rejection } from "../../transport/http/security.ts";
import { scopeGate, scopeRejection } from "./scope-gate.ts";
import { TokenVerifier } from "./token-verifier.ts";

/** Longest Authorization header accepted; real tokens (Entra's included) are well under it. */
export const MAX_AUTHORIZATION_BYTES = 8192;
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export function createProtectedResource(
  config: AuthConfig,
  options: ProtectedResourceOptions,
): ProtectedResource & { verifier: TokenVerifier } {
  const audience = config.audience ?? options.serverUrl;
  const resource = new URL(audience);
  const suffix = resource.pathname === "/" ? "" : resource.pathname;
  const metadataUrl = `${resource.origin}${WELL_KNOWN}${suffix}`;
  const localPath = new URL(options.serverUrl).pathname;
  const verifier = new TokenVerifier({ ...config, audience }, options.log);
  // The tools' scopes are known once the catalog is read; read it on first need, not at start-up.
  let scopesMemo: string[] | undefined;
  const scopes = () => (scopesMemo ??= [...new Set(options.scopesSupported())].sort());
  const metadata = () => ({
    resource: audience,
    authorization_servers: config.issuers,
    bearer_methods_supported: ["header"],
    ...(scopes().length > 0 ? { scopes_supported: scopes() } : {}),
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
  });
  const challenge = (params: Record<string, string | undefined>): string =>
    `Bearer ${Object.entries({ ...params, resource_metadata: metadataUrl })
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}="${(value as string).replace(/["\\]/g, "")}"`)
      .join(", ")}`;
  const reject = (
    status: number,
    message: string,
    params: Record<string, string | undefined>,
  ): { rejection: Rejection } => ({
    rejection: { status, message, headers: { "WWW-Authenticate": challenge(params) } },
  });
  const scopeHint = () => (scopes().length > 0 ? scopes().join(" ") : undefined);

  return {
    metadataPaths: new Set([WELL_KNOWN, `${WELL_KNOWN}${suffix}`, `${WELL_KNOWN}${localPath}`]),
    metadata,
    verifier,
    async authenticate(req) {
      const bearer = readBearer(req, scopeHint);
      if ("status" in bearer) return reject(bearer.status, bearer.message, bearer.params);
      const verdict = await verifier.verify(bearer.token);
      if (verdict.ok) return { principal: verdict.principal };
      if (verdict.status === 503)
        return {
          rejection: {
            status: 503,
            message: `Cannot check the token now: ${verdict.description}; retry later`,
            headers: { "Retry-After": "5" },
          },
        };
      return reject(401, `Invalid token: ${verdict.description}`, {
        error: "invalid_token",
        error_description: verdict.description,
      });
    },
    // No tool table, and resources listed as their scopes allow, as without a gate before (no --list-all-tools).
    fallbackGate: scopeGate({ required: () => undefined, listAll: false, all: () => [] }),
    refuse(server, message, auth) {
      return scopeRejection(server, message, auth, (required, what) => {
        const description = `${what} needs the scope(s) ${required.join(" ")}`;
        return reject(403, `Insufficient scope: ${description}`, {
          error: "insufficient_scope",
          scope: required.join(" "),
          error_description: description,
        }).rejection;
      });
    },
  };
}

type Refusal = { status: number; message: string; params: Record<string, string | undefined> };

/** The request's bearer token, or why it has none a resource server may read (RFC 6750, OAuth 2.1 §5.1). */
function readBearer(req: IncomingMessage, scopeHint: () => string | undefined): { token: string } | Refusal {
  // OAuth 2.1 §5.1 and the MCP spec: never a token in the URI, where logs and Referer headers keep it.
  if (/(?:^|[?&])access_token=/.test((req.url ?? "").split("?")[1] ?? ""))
    return {
      status: 400,
      message: "Access tokens are not accepted in the query string; send Authorization: Bearer",
      params: {
        error: "invalid_request",
        error_description: "access tokens are accepted in the Authorization header only",
      },
    };
  // Counted on the raw lines (Node keeps only the first); headersDistinct would build every header's array.
  if (headerLineCount(req, "authorization") > 1)
    return { status: 400, message: "More than one Authorization header", params: { error: "invalid_request" } };
  const value = req.headers.authorization ?? "";
  if (Buffer.byteLength(value) > MAX_AUTHORIZATION_BYTES)
    return {
      status: 400,
      message: `Authorization header over ${MAX_AUTHORIZATION_BYTES} bytes`,
      params: { error: "invalid_request", error_description: "the Authorization header is too large" },
    };
  if (!value || !/^Bearer\b/i.test(value))
    // RFC 6750 §3.1: a request with no credentials gets the challenge without an error code.
    return {
      status: 401,
      message: "Authorization required: send an OAuth access token as Authorization: Bearer",
      params: { scope: scopeHint() },
    };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(value);
  if (!match)
    return {
      status: 401,
      message: "Malformed bearer token",
      params: { error: "invalid_token", error_description: "the token is malformed" },
    };
  return { token: match[1] };
}
