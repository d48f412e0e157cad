// The `oauth` feature: with --auth-issuer the HTTP server is an OAuth 2.1 protected resource, validating
// access tokens (jose) and serving RFC 9728 metadata (protected-resource.ts).
import type { Feature, FeatureInput, FeatureSetup } from "../../package/feature.ts";
import { type AuthFlags, parseAuthConfig } from "./auth-flags.ts";
import { createProtectedResource } from "./protected-resource.ts";
import { catalogScopeGate } from "./scope-gate.ts";

export const oauthFeature: Feature = {
  name: "oauth",
  configure,
  http: { createProtectedResource },
};

function configure({ given, http, env }: FeatureInput): FeatureSetup | string {
  const flags = given as AuthFlags;
  const auth = parseAuthConfig(flags, http ? env : {});
  if (typeof auth === "string") return auth;
  if (!http && flags["auth-issuer"]?.length) return "--auth-issuer needs --http: OAuth protects the HTTP transport";
  if (!auth) return {};
  if (env.MCP_HTTP_TOKEN)
    return "MCP_HTTP_TOKEN and --auth-issuer (or MCP_AUTH_ISSUER) are both set: the static token is for local use, OAuth for remote; unset one";
  return { http: { auth }, server: { accessGate: (catalog) => catalogScopeGate(catalog, auth.listAllTools) } };
}
