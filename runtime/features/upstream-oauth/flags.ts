// The `upstream-oauth` feature's flags (runtime/package/server-flags.ts has the record's fields). The client's id
// and secret and the token key are env only: secrets stay out of the process list.
import type { FlagSet } from "../../package/server-flags.ts";

export const upstreamOAuthFlags: FlagSet = {
  group: "upstream-oauth",
  title: "Per-user access to the upstream API (HTTP; on when MCP_UPSTREAM_CLIENT_ID is set)",
  wholeSet: true,
  flags: [
    {
      flag: "public-url",
      env: "MCP_PUBLIC_URL",
      kind: "string",
      arg: "<url>",
      defaultText: "the listen address",
      http: true,
      upstream: true,
      help: "the server's external origin (https://mcp.example.com): sign-in links and the API's redirect URL, <url>/oauth/upstream/callback, are made from it",
    },
    {
      env: "MCP_UPSTREAM_CLIENT_ID",
      kind: "string",
      upstream: true,
      help: "this server's OAuth client id at the API (an OAuth app registered with the redirect URL <public url>/oauth/upstream/callback); set, each user signs in to the API",
    },
    {
      env: "MCP_UPSTREAM_CLIENT_SECRET",
      kind: "string",
      secret: true,
      upstream: true,
      help: "that client's secret (without it, a public client: PKCE alone)",
    },
    {
      env: "MCP_UPSTREAM_TOKEN_KEY",
      kind: "string",
      secret: true,
      http: true,
      upstream: true,
      help: "64 hex characters: the AES-256-GCM key the users' API tokens are stored under (`openssl rand -hex 32`); required with --session-store, else a key per process (tokens lost at restart)",
    },
  ],
};
