// The one list of a generated server's flags and environment variables. It drives the command line
// (flag-parser.ts: parsing, env twins, --help) and, at generate time, every document that names them: the
// MCP Registry's server.json, the MCPB manifest's user config, the package README and the root README's
// "Flags of a generated server" (generator/render/server-env.ts, scripts/readme-codes.ts). A flag that is
// not here does not exist.

/** The part of the server a flag belongs to: the help groups by it, and documents say so. */
export type FlagGroup =
  | "core"
  | "drain"
  | "logs"
  | "upstream"
  | "toolsets"
  | "budget"
  | "code"
  | "oauth"
  | "token-exchange"
  | "redis"
  | "metrics";

export type FlagKind =
  /** on when given; its env twin takes 1/true or 0/false */
  | "boolean"
  /** a whole number between min and max */
  | "whole"
  /** one of `choices` */
  | "choice"
  /** free text, checked by the part that uses it (a URL, a toolset list) */
  | "string"
  /** repeatable free text (each occurrence kept) */
  | "list";

export type ServerFlag = {
  /** The flag without its dashes; absent for a variable that has no flag (secrets stay out of `ps`). */
  flag?: string;
  /** The environment twin; a given flag wins over it. */
  env?: string;
  kind: FlagKind;
  /** The value's placeholder in --help and the README (`<n>`). */
  arg?: string;
  /** The default, as text (as server.json states it); absent: unset. */
  default?: string;
  /** What the default means when it is not a plain value ("the cores, at most 4"). */
  defaultText?: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** For a boolean's env twin: what 1 turns on, for its error message. */
  turnsOn?: string;
  /** One or two lines: --help, server.json and the MCPB manifest. */
  help: string;
  /** The README's cell, where it says more than `help`. */
  doc?: string;
  /** HTTP only: the flag without --http is a usage error, and a stdio server ignores the env twin. */
  http?: true;
  /** A credential (server.json `isSecret`, MCPB `sensitive`). */
  secret?: true;
  /** Only where the spec binds http tools (an upstream API exists). */
  upstream?: true;
  /** Offered as a setting to whoever installs the MCPB bundle, under this title. */
  setting?: string;
  group: FlagGroup;
};

export const FLAG_GROUP_TITLES: Record<FlagGroup, string> = {
  core: "Serving",
  drain: "Shutdown (HTTP)",
  logs: "Logs",
  upstream: "The upstream API",
  toolsets: "Which tools are served",
  budget: "Response budget",
  code: "Code mode",
  oauth: "OAuth (HTTP only; off unless --auth-issuer is given; not together with MCP_HTTP_TOKEN)",
  "token-exchange": "Per-user upstream credentials (HTTP with --auth-issuer; off unless --upstream-token-exchange)",
  redis: "Sessions shared by several instances (HTTP)",
  metrics: "Metrics (HTTP)",
};

export const SERVER_FLAGS: readonly ServerFlag[] = [
  {
    flag: "http",
    kind: "boolean",
    group: "core",
    help: "serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio",
  },
  {
    flag: "port",
    kind: "whole",
    arg: "<n>",
    min: 0,
    max: 65535,
    default: "3000",
    http: true,
    group: "core",
    help: "HTTP port (0 picks a free one)",
  },
  {
    flag: "host",
    kind: "string",
    arg: "<addr>",
    default: "127.0.0.1",
    http: true,
    group: "core",
    help: "HTTP interface",
  },
  {
    env: "MCP_HTTP_TOKEN",
    kind: "string",
    secret: true,
    group: "core",
    help: "the bearer token HTTP clients must send (local use; not together with --auth-issuer); unset: none is asked for",
  },
  {
    env: "MCP_SEALING_SECRET",
    kind: "string",
    secret: true,
    defaultText: "the --session-store's, else random per process",
    group: "core",
    help: "the secret(s) sealing 2026-era requestState and list cursors, the same on every instance behind a load balancer; comma-separated to rotate (the first seals, all open); each at least 32 characters",
  },
  {
    flag: "max-sessions",
    env: "MCP_MAX_SESSIONS",
    kind: "whole",
    arg: "<n>",
    min: 1,
    default: "10000",
    http: true,
    group: "core",
    help: "live 2025-era HTTP sessions at most: the least recently used idle one makes room, else initialize gets 503",
    doc: "live 2025-era HTTP sessions at most; when full, the least recently used idle session (nothing in flight, no open stream) is ended to make room, and when all are busy `initialize` gets HTTP 503 (JSON-RPC `-32603`, `Retry-After: 5`)",
  },
  {
    flag: "shutdown-grace",
    env: "MCP_SHUTDOWN_GRACE_MS",
    kind: "whole",
    arg: "<ms>",
    min: 0,
    default: "0",
    http: true,
    group: "drain",
    help: "on SIGTERM, how long /readyz answers 503 while requests are still served (each answer closing its connection), before the listener closes",
  },
  {
    flag: "shutdown-timeout",
    env: "MCP_SHUTDOWN_TIMEOUT_MS",
    kind: "whole",
    arg: "<ms>",
    min: 0,
    default: "30000",
    http: true,
    group: "drain",
    help: "on SIGTERM, how long requests in flight may take to finish, from the signal; a second signal exits at once (code 1)",
    doc: "on SIGTERM, how long requests in flight may take to finish, counted from the signal; then they get a JSON-RPC error and the server exits 0 (a second signal: exit 1 at once). See [Deploy several instances](#deploy-several-instances)",
  },
  {
    flag: "log-format",
    env: "MCP_LOG_FORMAT",
    kind: "choice",
    arg: "text|json",
    choices: ["text", "json"],
    default: "text",
    group: "logs",
    help: "json: one JSON object per stderr line, plus an access line per HTTP request with its X-Request-Id (never arguments, results or tokens)",
  },
  {
    flag: "base-url",
    env: "MCP_BASE_URL",
    kind: "string",
    arg: "<url>",
    defaultText: "the spec's upstream.baseUrl",
    upstream: true,
    setting: "API base URL",
    group: "upstream",
    help: "send every http binding to this upstream API base URL instead of the spec's",
  },
  {
    flag: "max-upstream-body",
    env: "MCP_MAX_UPSTREAM_BODY",
    kind: "whole",
    arg: "<n>",
    min: 1,
    default: "1000000",
    upstream: true,
    group: "upstream",
    help: "characters of an upstream answer read and passed on before it is cut",
    doc: "characters of an upstream answer read and passed on; the body is read as a stream and the connection closed at the cap, and the result is the cut text with a note saying so (a cut JSON answer is an `isError` text result, never `structuredContent`)",
  },
  {
    flag: "max-redirects",
    env: "MCP_MAX_REDIRECTS",
    kind: "whole",
    arg: "<n>",
    min: 0,
    default: "5",
    upstream: true,
    group: "upstream",
    help: "same-origin upstream redirects followed per request; other origins never are",
    doc: "same-origin redirects (same scheme, host and port) followed per request; a redirect to another origin is never followed, so credentials never reach it: the result is an `isError` naming the target",
  },
  {
    flag: "toolsets",
    env: "MCP_TOOLSETS",
    kind: "string",
    arg: "<a,b>",
    default: "all",
    setting: "Toolsets",
    group: "toolsets",
    help: "serve only the tools of these toolsets, comma-separated; 'all' serves every one",
    doc: "serve only the tools of these toolsets (see [Toolsets and dynamic mode](#toolsets-and-dynamic-mode))",
  },
  {
    flag: "read-only",
    env: "MCP_READ_ONLY",
    kind: "boolean",
    default: "false",
    turnsOn: "serve only read-only tools",
    setting: "Read-only tools only",
    group: "toolsets",
    help: "serve only tools marked readOnlyHint: true",
  },
  {
    flag: "mode",
    env: "MCP_MODE",
    kind: "choice",
    arg: "all|dynamic|code",
    choices: ["all", "dynamic", "code"],
    default: "all",
    setting: "Tool mode",
    group: "toolsets",
    help: "all: tools/list gives every tool; dynamic: five tools to search, browse, describe and call the others; code: search_docs and execute, which runs the agent's code calling the tools in a sandbox",
    doc: "`dynamic`: `tools/list` gives five tools to search, browse, describe and call the others; `code`: it gives `search_docs` and `execute` (see [Code mode](#code-mode))",
  },
  {
    flag: "max-response-tokens",
    env: "MCP_MAX_RESPONSE_TOKENS",
    kind: "whole",
    arg: "<n>",
    min: 500,
    default: "25000",
    setting: "Response token budget",
    group: "budget",
    help: "tokens (o200k) of a tool result before it is cut at whole list items or lines, with a note naming the arguments that fetch the rest",
    doc: "tokens (o200k) of a tool result before it is cut: see [Responses within a budget](#responses-within-a-budget)",
  },
  {
    flag: "allow-destructive",
    env: "MCP_ALLOW_DESTRUCTIVE",
    kind: "boolean",
    default: "false",
    turnsOn: "let code call destructive tools unconfirmed",
    group: "code",
    help: "let code call destructive tools without the client's confirmation (default: ask through elicitation, refuse when the client cannot be asked)",
  },
  {
    flag: "code-timeout",
    env: "MCP_CODE_TIMEOUT",
    kind: "whole",
    arg: "<ms>",
    min: 1,
    default: "30000",
    group: "code",
    help: "wall time of one execute, API calls included",
  },
  {
    flag: "code-memory",
    env: "MCP_CODE_MEMORY",
    kind: "whole",
    arg: "<MB>",
    min: 1,
    default: "64",
    group: "code",
    help: "memory of the sandbox",
  },
  {
    flag: "code-max-calls",
    env: "MCP_CODE_MAX_CALLS",
    kind: "whole",
    arg: "<n>",
    min: 0,
    default: "50",
    group: "code",
    help: "API calls one execute may make",
  },
  {
    flag: "code-concurrency",
    env: "MCP_CODE_CONCURRENCY",
    kind: "whole",
    arg: "<n>",
    min: 1,
    defaultText: "the cores, at most 4",
    group: "code",
    help: "executes that run at once, one sandbox thread each; the others wait up to their timeout",
  },
  {
    flag: "auth-issuer",
    env: "MCP_AUTH_ISSUER",
    kind: "list",
    arg: "<url>",
    defaultText: "OAuth off",
    group: "oauth",
    help: "an authorization server whose access tokens are accepted; repeat it or give a comma list for several (https, or http on loopback)",
    doc: 'serve as an OAuth 2.1 protected resource that accepts access tokens from these authorization servers (repeat it, or a comma list): RFC 9728 metadata at `/.well-known/oauth-protected-resource[/mcp]`, 401 `WWW-Authenticate: Bearer resource_metadata="..."` without a valid token, 403 `insufficient_scope` for a tool whose `scopes` the token lacks. Both this and `MCP_HTTP_TOKEN` set: start-up error, exit 2. https only, except loopback',
  },
  {
    flag: "auth-audience",
    env: "MCP_AUTH_AUDIENCE",
    kind: "string",
    arg: "<url>",
    defaultText: "the server's http://<host>:<port>/mcp",
    group: "oauth",
    help: "the resource tokens must be issued for (RFC 8707 audience); set it to the public URL behind a proxy",
  },
  {
    flag: "auth-jwks",
    env: "MCP_AUTH_JWKS",
    kind: "string",
    arg: "<url>",
    defaultText: "jwks_uri from the issuer's RFC 8414 / OIDC metadata",
    group: "oauth",
    help: "the issuer's signing keys, when its RFC 8414 / OpenID Connect metadata does not name them",
  },
  {
    flag: "auth-introspection",
    env: "MCP_AUTH_INTROSPECTION",
    kind: "string",
    arg: "<url>",
    group: "oauth",
    help: "RFC 7662 introspection for opaque tokens, as the client MCP_AUTH_CLIENT_ID / MCP_AUTH_CLIENT_SECRET",
  },
  {
    env: "MCP_AUTH_CLIENT_ID",
    kind: "string",
    secret: true,
    group: "oauth",
    help: "this server's client id at the introspection endpoint",
  },
  {
    env: "MCP_AUTH_CLIENT_SECRET",
    kind: "string",
    secret: true,
    group: "oauth",
    help: "this server's client secret at the introspection endpoint",
  },
  {
    env: "MCP_AUTH_CACHE_SECONDS",
    kind: "whole",
    min: 0,
    max: 3600,
    default: "30",
    group: "oauth",
    help: "seconds an introspection answer is reused (0: never)",
  },
  {
    flag: "list-all-tools",
    env: "MCP_LIST_ALL_TOOLS",
    kind: "boolean",
    default: "false",
    turnsOn: "list every tool",
    group: "oauth",
    help: "list every tool whatever the token's scopes (and dynamic/code mode's search); calls still need them",
  },
  {
    flag: "upstream-token-exchange",
    env: "MCP_UPSTREAM_TOKEN_EXCHANGE",
    kind: "string",
    arg: "<url>",
    defaultText: "off",
    upstream: true,
    group: "token-exchange",
    help: "exchange each caller's validated MCP token (RFC 8693) at this token endpoint (https, or http on 127.0.0.1) for an upstream token, sent upstream instead of the spec's credentials; the MCP token itself is never sent upstream",
  },
  {
    flag: "upstream-audience",
    env: "MCP_UPSTREAM_AUDIENCE",
    kind: "string",
    arg: "<aud>",
    defaultText: "none (required with the exchange)",
    upstream: true,
    group: "token-exchange",
    help: "the upstream API's audience asked for in the exchange",
  },
  {
    flag: "upstream-scope",
    env: "MCP_UPSTREAM_SCOPE",
    kind: "string",
    arg: "<scopes>",
    defaultText: "the authorization server's",
    upstream: true,
    group: "token-exchange",
    help: "scopes asked for the upstream token, space-separated",
  },
  {
    env: "MCP_UPSTREAM_CLIENT_ID",
    kind: "string",
    secret: true,
    upstream: true,
    group: "token-exchange",
    help: "token exchange: this server's client id at the authorization server",
  },
  {
    env: "MCP_UPSTREAM_CLIENT_SECRET",
    kind: "string",
    secret: true,
    upstream: true,
    group: "token-exchange",
    help: "token exchange: this server's client secret at the authorization server (HTTP basic; without it, a public client)",
  },
  {
    flag: "session-store",
    env: "MCP_SESSION_STORE",
    kind: "string",
    arg: "<url>",
    defaultText: "in the process",
    http: true,
    // A Redis URL may hold the store's password.
    secret: true,
    group: "redis",
    help: "keep 2025-era sessions in Redis (redis://host:port/db, rediss:// for TLS), shared by every instance given the same URL, so any instance behind a load balancer serves any session",
    doc: "keep 2025-era sessions in Redis (`redis://host:port/db`, `rediss://` for TLS), shared by every instance given the same URL: any instance serves any session, resumes its streams, delivers its server-to-client requests. Unreachable at start: exit 1; lost later: 503 until it is back",
  },
  {
    flag: "metrics",
    env: "MCP_METRICS",
    kind: "boolean",
    default: "false",
    turnsOn: "serve /metrics",
    http: true,
    group: "metrics",
    help: "serve Prometheus metrics at GET /metrics on the HTTP port, behind the same Host/Origin and token checks as /mcp",
  },
  {
    flag: "metrics-port",
    env: "MCP_METRICS_PORT",
    kind: "whole",
    arg: "<n>",
    min: 0,
    max: 65535,
    http: true,
    group: "metrics",
    help: "serve the metrics on a port of their own instead (same --host, no token: keep it on the operator's network); implies --metrics",
  },
];
