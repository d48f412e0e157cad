// OAuth scopes per tool and resource (issue 17): a token without them cannot call or read it, nor see it
// listed (tools/list, search, browse, code mode's docs) unless --list-all-tools.
import type { AuthPrincipal } from "./auth-principal.ts";

export type ToolGate = {
  /** The scopes a tool requires (empty or undefined: none). */
  required(name: string): readonly string[] | undefined;
  /** --list-all-tools: list every tool whatever the token's scopes; calls are still refused. */
  listAll: boolean;
  /** Every scope some tool requires (RFC 9728 `scopes_supported`). */
  all(): readonly string[];
};

/** The required scopes the caller lacks; always none without a principal (auth off, or the transport
 * already refused anonymous callers). */
export function missingScopes(gate: ToolGate | undefined, name: string, auth: AuthPrincipal | undefined): string[] {
  return gate && auth ? missingResourceScopes(gate.required(name), auth) : [];
}

/** Whether a listing (tools/list, search, browse, docs) shows this tool to this caller. */
export function visibleTo(gate: ToolGate | undefined, name: string, auth: AuthPrincipal | undefined): boolean {
  return !gate || gate.listAll || missingScopes(gate, name, auth).length === 0;
}

/** The scopes a resource or template (or tool) requires that the caller lacks; none without a principal. */
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
