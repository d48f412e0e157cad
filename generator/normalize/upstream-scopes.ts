/**
 * Whose token an OpenAPI document's oauth2 scopes are demanded of (issue 34). The document describes what the
 * API's authorization server grants, so with the `upstream-oauth` feature they are what the server asks that
 * server for on each user's behalf (the binding's `scopes`), and the MCP token (--auth-issuer) is checked for
 * none of them, unless the config's `openapi.mcpScopes: document` says the MCP issuer is the API's own
 * authorization server. Without the feature they stay the MCP token's, as before (the tool's `scopes`).
 */
import type { HttpBindingNode, ServerNode } from "../ir.ts";

/** The ids of the upstream's schemes with an authorization code flow (each user can sign in through it). */
export function codeFlowSchemes(server: ServerNode): Set<string> {
  const schemes = server.upstream?.securitySchemes ?? [];
  return new Set(
    schemes.flatMap((scheme) => ("authorizationCode" in scheme && scheme.authorizationCode ? [scheme.id] : [])),
  );
}

/** Whether an operation with `http` is called with the user's own upstream token: a requirement names such a scheme. */
export function signsIn(http: HttpBindingNode | undefined, schemes: ReadonlySet<string>): boolean {
  return !!http?.security?.some((alternative) => alternative.some((id) => schemes.has(id)));
}

export type ScopePlacement = { scopes?: string[]; upstreamScopes?: string[] };

/** Where an operation's scopes go: the MCP token's (`scopes`), the upstream sign-in's (`upstreamScopes`), or both. */
export function placeScopes(server: ServerNode, upstreamOAuth: boolean) {
  const schemes = codeFlowSchemes(server);
  const both = server.upstream?.mcpScopes === "document";
  return (node: { http?: HttpBindingNode; scopes?: string[] }): ScopePlacement => {
    if (!node.scopes?.length) return {};
    if (!upstreamOAuth || !signsIn(node.http, schemes)) return { scopes: node.scopes };
    return { upstreamScopes: node.scopes, ...(both ? { scopes: node.scopes } : {}) };
  };
}
