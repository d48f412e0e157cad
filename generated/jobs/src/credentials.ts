// Per-user credentials for the upstream API: which credentials to send for the caller of this request.
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
//
// `ctx.auth` is the caller (subject, scopes, claims) when the server validates OAuth tokens (--auth-issuer).
// Return `{ bearer: "..." }` (sent as Authorization: Bearer), `{ headers: { "x-api-key": "..." } }`, or
// `undefined` to use --upstream-token-exchange when it is set, else the spec's env-based credentials.
// Never return ctx.auth.token: the MCP token must not be sent upstream (the call would be refused).
// Throw CredentialsError("...") to tell the client why; any other error reaches it as a generic message.
import type { SpecContext, UpstreamCredentials } from "../runtime/handler-api.ts";

export default async function credentials(_ctx: SpecContext): Promise<UpstreamCredentials | undefined> {
  return undefined;
}
