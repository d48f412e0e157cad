/** Whose token an OpenAPI document's oauth2 scopes bind (issue 34): said once per authorization code scheme, at
 * generate time, so the user sees which model the generated server applies (normalize/upstream-scopes.ts). */
import { tokenFromEnv } from "../openapi/security.ts";
import type { Rule } from "./rule.ts";
import { featureAsked } from "./rule.ts";

export const upstreamOAuthRules: Rule = (server, report) => {
  for (const scheme of server.upstream?.securitySchemes ?? []) {
    if (!("authorizationCode" in scheme) || !scheme.authorizationCode) continue;
    const { authorizationUrl, scopes = [] } = scheme.authorizationCode;
    const at =
      scheme.loc?.pointer ?? `/components/securitySchemes/${scheme.id.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const listed = scopes.length > 0 ? ` (${scopes.slice(0, 8).join(", ")}${scopes.length > 8 ? ", ..." : ""})` : "";
    const where = URL.canParse(authorizationUrl) ? new URL(authorizationUrl).origin : "the API";
    const fallback =
      "env" in scheme ? `; until MCP_UPSTREAM_CLIENT_ID is set, the server sends the token in ${scheme.env}` : "";
    const message = !featureAsked(server, "upstream-oauth")
      ? `security scheme '${scheme.id}' has an authorization code flow, but this package is generated without upstream-oauth: its scopes${listed} are demanded of MCP tokens (--auth-issuer), as if that were ${where}'s own authorization server`
      : server.upstream?.mcpScopes === "document"
        ? `security scheme '${scheme.id}': each user signs in to the API at ${where} (upstream-oauth); its scopes${listed} are asked of it for the user, and demanded of MCP tokens too (openapi.mcpScopes: document)${fallback}`
        : `security scheme '${scheme.id}': each user signs in to the API at ${where} (upstream-oauth); its scopes${listed} are asked of it for the user, not demanded of MCP tokens (set openapi.mcpScopes: document when --auth-issuer is ${where}'s own authorization server)${fallback}`;
    report("UPSTREAM_OAUTH_SCOPES", at, message);
    // Without the feature, nobody signs in: the token comes from the environment, as for the other flows.
    if (!featureAsked(server, "upstream-oauth") && scheme.signIn && "env" in scheme)
      report(
        "OPENAPI_SECURITY_TOKEN_FROM_ENV",
        at,
        tokenFromEnv(scheme.id, "oauth2", scheme.signIn, scheme.env.replace(/_TOKEN$/, "")),
      );
  }
};
