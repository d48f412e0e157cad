// The `oauth` feature's flags (runtime/package/server-flags.ts has the record's fields).
import type { FlagSet } from "../../package/server-flags.ts";

export const oauthFlags: FlagSet = {
  group: "oauth",
  title: "OAuth (HTTP only; off unless --auth-issuer is given; not together with MCP_HTTP_TOKEN)",
  wholeSet: true,
  flags: [
    {
      flag: "auth-issuer",
      env: "MCP_AUTH_ISSUER",
      kind: "list",
      arg: "<url>",
      defaultText: "OAuth off",
      help: "an authorization server whose access tokens are accepted; repeat it or give a comma list for several (https, or http on loopback)",
      doc: 'serve as an OAuth 2.1 protected resource that accepts access tokens from these authorization servers (repeat it, or a comma list): RFC 9728 metadata at `/.well-known/oauth-protected-resource[/mcp]`, 401 `WWW-Authenticate: Bearer resource_metadata="..."` without a valid token, 403 `insufficient_scope` for a tool whose `scopes` the token lacks. Both this and `MCP_HTTP_TOKEN` set: start-up error, exit 2. https only, except loopback',
    },
    {
      flag: "auth-audience",
      env: "MCP_AUTH_AUDIENCE",
      kind: "string",
      arg: "<url>",
      defaultText: "the server's http://<host>:<port>/mcp",
      help: "the resource tokens must be issued for (RFC 8707 audience); set it to the public URL behind a proxy",
    },
    {
      flag: "auth-jwks",
      env: "MCP_AUTH_JWKS",
      kind: "string",
      arg: "<url>",
      defaultText: "jwks_uri from the issuer's RFC 8414 / OIDC metadata",
      help: "the issuer's signing keys, when its RFC 8414 / OpenID Connect metadata does not name them",
    },
    {
      flag: "auth-introspection",
      env: "MCP_AUTH_INTROSPECTION",
      kind: "string",
      arg: "<url>",
      help: "RFC 7662 introspection for opaque tokens, as the client MCP_AUTH_CLIENT_ID / MCP_AUTH_CLIENT_SECRET",
    },
    {
      env: "MCP_AUTH_CLIENT_ID",
      kind: "string",
      secret: true,
      help: "this server's client id at the introspection endpoint",
    },
    {
      env: "MCP_AUTH_CLIENT_SECRET",
      kind: "string",
      secret: true,
      help: "this server's client secret at the introspection endpoint",
    },
    {
      env: "MCP_AUTH_CACHE_SECONDS",
      kind: "whole",
      min: 0,
      max: 3600,
      default: "30",
      help: "seconds an introspection answer is reused (0: never)",
    },
    {
      flag: "list-all-tools",
      env: "MCP_LIST_ALL_TOOLS",
      kind: "boolean",
      default: "false",
      turnsOn: "list every tool",
      help: "list every tool whatever the token's scopes (and dynamic/code mode's search); calls still need them",
    },
  ],
};
