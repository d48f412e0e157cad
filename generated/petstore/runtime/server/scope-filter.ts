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

/** The error text of a call the caller's token lacks scopes for (in-process calls, e.g. code mode). */
export function insufficientScopeMessage(name: string, missing: readonly string[]): string {
  return `Insufficient scope: the tool '${name}' needs the OAuth scope(s) ${missing.join(" ")}; authorize again with them`;
}
