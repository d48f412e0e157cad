// Scopes per tool (issue 17): a tool may require OAuth scopes (OpenAPI `security` of its operation, or
// `scopes:` in the spec language). A token without them cannot call the tool, and does not see it in
// tools/list (nor in dynamic mode's search and browse, nor code mode's docs) unless --list-all-tools.
import type { AuthPrincipal } from "./auth-principal.ts";

export type ToolGate = {
  /** The scopes a tool requires (empty or undefined: none). */
  required(name: string): readonly string[] | undefined;
  /** --list-all-tools: list every tool whatever the token's scopes; calls are still refused. */
  listAll: boolean;
  /** Every scope some tool requires (RFC 9728 `scopes_supported`). */
  all(): readonly string[];
};

/** The required scopes the caller lacks (empty when it may call; always empty without a principal:
 * with auth off there is nothing to check, and with it on the transport refused anonymous callers). */
export function missingScopes(gate: ToolGate | undefined, name: string, auth: AuthPrincipal | undefined): string[] {
  if (!gate || !auth) return []; // auth off: not even the table is read
  const required = gate.required(name);
  if (!required || required.length === 0) return [];
  const granted = new Set(auth.scopes);
  return required.filter((scope) => !granted.has(scope));
}

/** Whether a listing (tools/list, search, browse, docs) shows this tool to this caller. */
export function visibleTo(gate: ToolGate | undefined, name: string, auth: AuthPrincipal | undefined): boolean {
  return !gate || gate.listAll || missingScopes(gate, name, auth).length === 0;
}

/**
 * The scopes a resource or template requires that the caller lacks (issue 27: a resource template made from
 * an OpenAPI operation needs the operation's scopes, as the tool would). Its own list, not the tool gate's
 * table, and empty without a principal, as for tools.
 */
export function missingResourceScopes(
  required: readonly string[] | undefined,
  auth: AuthPrincipal | undefined,
): string[] {
  if (!auth || !required || required.length === 0) return [];
  const granted = new Set(auth.scopes);
  return required.filter((scope) => !granted.has(scope));
}

/** Whether resources/list or resources/templates/list shows it: as tools, unless --list-all-tools. */
export function resourceVisibleTo(
  gate: ToolGate | undefined,
  required: readonly string[] | undefined,
  auth: AuthPrincipal | undefined,
): boolean {
  return gate?.listAll === true || missingResourceScopes(required, auth).length === 0;
}

/** The error text of a resource read (or subscription, completion) the caller's token lacks scopes for. */
export function insufficientResourceScopeMessage(uri: string, missing: readonly string[]): string {
  return `Insufficient scope: the resource '${uri.slice(0, 200)}' needs the OAuth scope(s) ${missing.join(" ")}; authorize again with them`;
}

/** The error text of a call the caller's token lacks scopes for (in-process calls, e.g. code mode). */
export function insufficientScopeMessage(name: string, missing: readonly string[]): string {
  return `Insufficient scope: the tool '${name}' needs the OAuth scope(s) ${missing.join(" ")}; authorize again with them`;
}
