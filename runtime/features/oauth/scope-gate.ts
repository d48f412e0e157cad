// OAuth scopes per tool and resource (issue 17), the `oauth` feature's part of the server: a token without a
// tool's scopes cannot call it nor see it listed (tools/list, search, browse, code mode's docs) unless
// --list-all-tools, and the same holds for resources and templates (issue 27). Without the feature there is
// no principal to check, so the core carries none of this (it asks the AccessGate, if the server has one).

import type { Catalog } from "../../package/catalog-types.ts";
import { isObject, isRequest } from "../../protocol/codec.ts";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import type { AuthPrincipal } from "../../server/auth-principal.ts";
import { resourceScopes } from "../../server/features.ts";
import type { McpServer } from "../../server/server.ts";
import type { AccessGate } from "../../server/types.ts";
import type { Rejection } from "../../transport/http/security.ts";

export type ScopeTable = {
  /** The scopes a tool requires (empty or undefined: none). */
  required(name: string): readonly string[] | undefined;
  /** List every tool whatever the token's scopes; calls are still refused. */
  listAll: boolean;
  /** Every scope some tool or resource requires (RFC 9728 `scopes_supported`). */
  all(): readonly string[];
};

/** The required scopes a principal lacks; none without one (the transport refused anonymous callers). */
function missing(required: readonly string[] | undefined, auth: AuthPrincipal | undefined): string[] {
  if (!auth || !required || required.length === 0) return [];
  const granted = new Set(auth.scopes);
  return required.filter((scope) => !granted.has(scope));
}

const refusal = (what: string, lacking: readonly string[]) =>
  lacking.length === 0
    ? undefined
    : `Insufficient scope: ${what} needs the OAuth scope(s) ${lacking.join(" ")}; authorize again with them`;

/** The gate of a scope table: what the core asks before listing, calling or reading. */
export function scopeGate(table: ScopeTable): AccessGate {
  return {
    required: (name) => table.required(name),
    all: () => table.all(),
    toolRefusal: (name, auth) => refusal(`the tool '${name}'`, missing(table.required(name), auth)),
    resourceRefusal: (required, uri, auth) => refusal(`the resource '${uri.slice(0, 200)}'`, missing(required, auth)),
    showsTool: (name, auth) => table.listAll || missing(table.required(name), auth).length === 0,
    showsResource: (required, auth) => table.listAll || missing(required, auth).length === 0,
  };
}

/** A generated server's gate: its catalog's scopes per tool, and those of resources and templates, read on first need. */
export function catalogScopeGate(catalog: () => Catalog, listAll: boolean): AccessGate {
  let byTool: Map<string, string[]> | undefined;
  const scopesOf = () => {
    byTool ??= new Map(catalog().tools.flatMap((tool) => (tool.scopes?.length ? [[tool.name, tool.scopes]] : [])));
    return byTool;
  };
  const resourceScopeList = () => {
    const { resources, resourceTemplates } = catalog();
    return [...resources, ...resourceTemplates].flatMap((entry) => entry.scopes ?? []);
  };
  return scopeGate({
    required: (name) => scopesOf().get(name),
    listAll,
    all: () => [...new Set([...[...scopesOf().values()].flat(), ...resourceScopeList()])],
  });
}

/**
 * The HTTP 403 with the insufficient_scope challenge (MCP basic/authorization, "Runtime Insufficient Scope
 * Errors") for a tools/call whose token lacks the scopes of a tool it runs (the named one, or the one a
 * forwarding tool hands the call to: McpServer.toolsOfCall), or a resources/read or subscribe of a resource
 * it may not read, so the client can step up. Calls made inside a run (code mode) are refused per call.
 */
export function scopeRejection(
  server: McpServer,
  message: JsonRpcMessage,
  auth: AuthPrincipal | undefined,
  insufficientScope: (required: readonly string[], what: string) => Rejection,
): Rejection | undefined {
  const gate = server.options.toolGate;
  if (!gate || !auth || !isRequest(message)) return undefined;
  const params = message.params ?? {};
  if (message.method === "tools/call" && typeof params.name === "string") {
    const args = isObject(params.arguments) ? params.arguments : {};
    for (const tool of server.toolsOfCall(params.name, args))
      if (gate.toolRefusal(tool, auth)) return insufficientScope(gate.required(tool) ?? [], `the tool '${tool}'`);
    return undefined;
  }
  if (
    (message.method !== "resources/read" && message.method !== "resources/subscribe") ||
    typeof params.uri !== "string"
  )
    return undefined;
  server.settle(); // a generated server registers its resources on first need
  const required = resourceScopes(server, params.uri);
  if (!gate.resourceRefusal(required, params.uri, auth)) return undefined;
  // The URI is the client's text and goes into a header: printable ASCII only, cut.
  const shown = params.uri.slice(0, 200).replace(/[^\x20-\x7E]/g, "?");
  return insufficientScope(required ?? [], `the resource '${shown}'`);
}
