/**
 * The scaffold of src/credentials.ts, a package's per-user upstream credentials hook (issue 17): written
 * once when the package forwards to an upstream API, then the user's (never overwritten, like a handler
 * scaffold). As scaffolded it returns `undefined`: the built-in token exchange (--upstream-token-exchange)
 * or the spec's env-based credentials apply, exactly as without the hook.
 */
import type { Model } from "../normalize/normalize.ts";
import type { Scaffold } from "./handlers.ts";

export const CREDENTIALS_FILE = "src/credentials.ts";
/** The record's name for it in .mcpgen/files.json (`scaffolded`). */
export const CREDENTIALS_OWNER = "upstream credentials";

/** Whether the package forwards anything to an upstream (an http binding on a tool, resource or template). */
export function forwardsUpstream(model: Model): boolean {
  return [...model.tools, ...model.resources, ...model.templates].some((entry) => entry.node.http !== undefined);
}

const CONTENT = `// Per-user credentials for the upstream API: which credentials to send for the caller of this request.
// Written once by mcpgen and yours from now on: regenerating never overwrites this file.
//
// \`ctx.auth\` is the caller (subject, scopes, claims) when the server validates OAuth tokens (--auth-issuer).
// Return \`{ bearer: "..." }\` (sent as Authorization: Bearer), \`{ headers: { "x-api-key": "..." } }\`, or
// \`undefined\` to use --upstream-token-exchange when it is set, else the spec's env-based credentials.
// Never return ctx.auth.token: the MCP token must not be sent upstream (the call would be refused).
// Throw CredentialsError("...") to tell the client why; any other error reaches it as a generic message.
import type { SpecContext, UpstreamCredentials } from "../runtime/handler-api.ts";

export default async function credentials(_ctx: SpecContext): Promise<UpstreamCredentials | undefined> {
  return undefined;
}
`;

export function renderCredentialsScaffold(model: Model): Scaffold[] {
  return forwardsUpstream(model) ? [{ path: CREDENTIALS_FILE, owner: CREDENTIALS_OWNER, content: CONTENT }] : [];
}
