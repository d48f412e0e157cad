// The `token-exchange` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const tokenExchangeFlags: FlagSet = {
  group: "token-exchange",
  title: "Per-user upstream credentials (HTTP with --auth-issuer; off unless --upstream-token-exchange)",
  wholeSet: true,
  flags: [
    {
      flag: "upstream-token-exchange",
      env: "MCP_UPSTREAM_TOKEN_EXCHANGE",
      kind: "string",
      arg: "<url>",
      defaultText: "off",
      upstream: true,
      help: "exchange each caller's validated MCP token (RFC 8693) at this token endpoint (https, or http on 127.0.0.1) for an upstream token, sent upstream instead of the spec's credentials; the MCP token itself is never sent upstream",
    },
    {
      flag: "upstream-audience",
      env: "MCP_UPSTREAM_AUDIENCE",
      kind: "string",
      arg: "<aud>",
      defaultText: "none (required with the exchange)",
      upstream: true,
      help: "the upstream API's audience asked for in the exchange",
    },
    {
      flag: "upstream-scope",
      env: "MCP_UPSTREAM_SCOPE",
      kind: "string",
      arg: "<scopes>",
      defaultText: "the authorization server's",
      upstream: true,
      help: "scopes asked for the upstream token, space-separated",
    },
    {
      env: "MCP_UPSTREAM_CLIENT_ID",
      kind: "string",
      secret: true,
      upstream: true,
      help: "token exchange: this server's client id at the authorization server",
    },
    {
      env: "MCP_UPSTREAM_CLIENT_SECRET",
      kind: "string",
      secret: true,
      upstream: true,
      help: "token exchange: this server's client secret at the authorization server (HTTP basic; without it, a public client)",
    },
  ],
};
