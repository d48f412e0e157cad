// The principal the protected-resource check established for a request, handed from the HTTP server to the
// POST handlers without widening their signatures. A WeakMap: it goes when the request does.
import type { IncomingMessage } from "node:http";
import type { AuthPrincipal } from "../../server/auth-principal.ts";

const principals = new WeakMap<IncomingMessage, AuthPrincipal>();

export function setRequestAuth(req: IncomingMessage, principal: AuthPrincipal): void {
  principals.set(req, principal);
}

export function requestAuth(req: IncomingMessage): AuthPrincipal | undefined {
  return principals.get(req);
}
