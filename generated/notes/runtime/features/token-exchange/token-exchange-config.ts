// The flags (and env twins) of the built-in RFC 8693 token exchange (issue 17), read by spec-main.ts:
// --upstream-token-exchange, --upstream-audience, --upstream-scope, and the server's own client at the
// authorization server in MCP_UPSTREAM_CLIENT_ID / MCP_UPSTREAM_CLIENT_SECRET (env only: secrets stay
// out of the process list).
import { isSecureOrLoopback } from "../../protocol/loopback-url.ts";
import type { TokenExchangeConfig } from "./token-exchange.ts";

export type TokenExchangeFlags = {
  "upstream-token-exchange"?: string;
  "upstream-audience"?: string;
  "upstream-scope"?: string;
};

/** The exchange's configuration, undefined when it is off, or the usage error. */
export function tokenExchangeConfig(
  flags: TokenExchangeFlags,
  http: boolean,
  env: NodeJS.ProcessEnv = process.env,
): TokenExchangeConfig | undefined | string {
  const value = (flag: keyof TokenExchangeFlags, name: string) => flags[flag] || env[name] || undefined;
  const source = (flag: keyof TokenExchangeFlags, name: string) => (flags[flag] ? `--${flag}` : name);
  const endpoint = value("upstream-token-exchange", "MCP_UPSTREAM_TOKEN_EXCHANGE");
  const audience = value("upstream-audience", "MCP_UPSTREAM_AUDIENCE");
  const scope = value("upstream-scope", "MCP_UPSTREAM_SCOPE");
  if (endpoint === undefined) {
    if (flags["upstream-audience"] || flags["upstream-scope"])
      return "--upstream-audience and --upstream-scope need --upstream-token-exchange <token endpoint>";
    return undefined;
  }
  const named = source("upstream-token-exchange", "MCP_UPSTREAM_TOKEN_EXCHANGE");
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  // The subject token and the client secret go to this URL: over TLS, or to this machine.
  if (!url || !isSecureOrLoopback(url))
    return `${named} must be an https URL (or http on 127.0.0.1/localhost), not '${endpoint}'`;
  if (!http) return `${named} needs --http (with --auth-issuer): it exchanges the token each HTTP caller presents`;
  if (audience === undefined)
    return `${named} needs --upstream-audience <the upstream API's audience> (env MCP_UPSTREAM_AUDIENCE)`;
  const clientId = env.MCP_UPSTREAM_CLIENT_ID || undefined;
  if (clientId === undefined)
    return `${named} needs MCP_UPSTREAM_CLIENT_ID (and MCP_UPSTREAM_CLIENT_SECRET): this server's client at the authorization server`;
  const clientSecret = env.MCP_UPSTREAM_CLIENT_SECRET || undefined;
  return {
    tokenEndpoint: url.href,
    audience,
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
}
