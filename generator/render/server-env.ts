/**
 * Every environment variable a generated server reads, with what an installer needs to ask for it: the
 * upstream's credentials (secret), its server URL variables, and the env twins of the server's flags
 * (runtime/package/spec-main.ts and its helpers, token-exchange-flags.ts). One list for the MCP Registry's
 * server.json and the MCPB manifest, so the two never disagree; test/render/publish-files.large.ts holds the
 * flag twins to those files.
 */
import type { Model } from "../normalize/normalize.ts";

export type ServerEnvVar = {
  name: string;
  description: string;
  /** A credential: server.json `isSecret`, MCPB `sensitive`. */
  secret: boolean;
  /** The server cannot reach its API without it. */
  required: boolean;
  format: "string" | "number" | "boolean";
  /** What the server uses when the variable is unset (as text, as server.json states it). */
  default?: string;
  choices?: string[];
  /** Offered as a setting to whoever installs the MCPB bundle; the rest keep their defaults there. */
  setting?: { title: string };
};

type Twin = Omit<ServerEnvVar, "secret" | "required"> & { upstreamOnly?: true; secret?: true };

/** The flags' env twins, as spec-main.ts reads them (defaults as its usage text states them). */
const FLAG_TWINS: Twin[] = [
  {
    name: "MCP_BASE_URL",
    description: "Upstream API base URL, overriding the spec's (the --base-url flag); unset: the spec's.",
    format: "string",
    upstreamOnly: true,
    setting: { title: "API base URL" },
  },
  {
    name: "MCP_TOOLSETS",
    description: "Serve only the tools of these toolsets, comma-separated (--toolsets); 'all' serves every one.",
    format: "string",
    default: "all",
    setting: { title: "Toolsets" },
  },
  {
    name: "MCP_READ_ONLY",
    description: "true: serve only tools marked readOnlyHint (--read-only).",
    format: "boolean",
    default: "false",
    setting: { title: "Read-only tools only" },
  },
  {
    name: "MCP_MODE",
    description:
      "all: every tool; dynamic: tools to search and call the others; code: search_docs and execute (--mode).",
    format: "string",
    default: "all",
    choices: ["all", "dynamic", "code"],
    setting: { title: "Tool mode" },
  },
  {
    name: "MCP_MAX_RESPONSE_TOKENS",
    description: "Tokens (o200k) of a tool result before it is cut, at least 500 (--max-response-tokens).",
    format: "number",
    default: "25000",
    setting: { title: "Response token budget" },
  },
  {
    name: "MCP_MAX_UPSTREAM_BODY",
    description: "Characters of an upstream answer read and passed on (--max-upstream-body).",
    format: "number",
    default: "1000000",
    upstreamOnly: true,
  },
  {
    name: "MCP_MAX_REDIRECTS",
    description: "Same-origin redirects followed per upstream request (--max-redirects).",
    format: "number",
    default: "5",
    upstreamOnly: true,
  },
  {
    name: "MCP_ALLOW_DESTRUCTIVE",
    description: "true: code mode may call destructive tools without the client's confirmation (--allow-destructive).",
    format: "boolean",
    default: "false",
  },
  {
    name: "MCP_CODE_TIMEOUT",
    description: "Code mode: wall time of one execute, in ms (--code-timeout).",
    format: "number",
    default: "30000",
  },
  {
    name: "MCP_CODE_MEMORY",
    description: "Code mode: sandbox memory, in MB (--code-memory).",
    format: "number",
    default: "64",
  },
  {
    name: "MCP_CODE_MAX_CALLS",
    description: "Code mode: API calls one execute may make (--code-max-calls).",
    format: "number",
    default: "50",
  },
  {
    name: "MCP_CODE_CONCURRENCY",
    description: "Code mode: executes run at once (--code-concurrency); unset: the cores, at most 4.",
    format: "number",
  },
  {
    name: "MCP_MAX_SESSIONS",
    description: "HTTP only: live 2025-era sessions at most (--max-sessions).",
    format: "number",
    default: "10000",
  },
  {
    name: "MCP_SHUTDOWN_GRACE_MS",
    description:
      "HTTP only: on SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes (--shutdown-grace).",
    format: "number",
    default: "0",
  },
  // Scale-out (issue 18): graceful shutdown, the shared session store, metrics and logs.
  {
    name: "MCP_SHUTDOWN_TIMEOUT_MS",
    description:
      "HTTP only: on SIGTERM, how long requests in flight may take to finish, counted from the signal (--shutdown-timeout).",
    format: "number",
    default: "30000",
  },
  {
    name: "MCP_SESSION_STORE",
    description:
      "HTTP only: a Redis URL (redis://host:port/db, rediss:// for TLS) where 2025-era sessions are kept, shared by every instance given the same URL (--session-store); unset: in the process.",
    format: "string",
    // The URL carries the Redis password (redis://user:pass@host): stored as a secret by registries and clients.
    secret: true,
  },
  {
    name: "MCP_SEALING_SECRET",
    description:
      "Secret(s) of at least 32 characters sealing 2026-era requestState and list cursors, the same on every instance behind a load balancer; comma-separated to rotate (the first seals, all open); unset: the session store's, else random per process.",
    format: "string",
    secret: true,
  },
  {
    name: "MCP_METRICS",
    description:
      "HTTP only: 1 serves Prometheus metrics at GET /metrics on the HTTP port, behind the same checks as /mcp (--metrics).",
    format: "boolean",
    default: "0",
  },
  {
    name: "MCP_METRICS_PORT",
    description: "HTTP only: serve the metrics on this port of their own instead, no token (--metrics-port).",
    format: "number",
  },
  {
    name: "MCP_LOG_FORMAT",
    description:
      "text, or json: one JSON object per stderr line plus an access line per HTTP request with its X-Request-Id (--log-format).",
    format: "string",
    default: "text",
  },
  // Per-user upstream credentials: RFC 8693 token exchange (runtime/package/token-exchange-flags.ts).
  {
    name: "MCP_UPSTREAM_TOKEN_EXCHANGE",
    description:
      "HTTP with --auth-issuer: token endpoint where each caller's MCP token is exchanged (RFC 8693) for an upstream token (--upstream-token-exchange); unset: off.",
    format: "string",
    upstreamOnly: true,
  },
  {
    name: "MCP_UPSTREAM_AUDIENCE",
    description: "The upstream API's audience asked for in the token exchange (--upstream-audience).",
    format: "string",
    upstreamOnly: true,
  },
  {
    name: "MCP_UPSTREAM_SCOPE",
    description: "Scopes asked for the exchanged upstream token, space-separated (--upstream-scope).",
    format: "string",
    upstreamOnly: true,
  },
  {
    name: "MCP_UPSTREAM_CLIENT_ID",
    description: "Token exchange: this server's client id at the authorization server.",
    format: "string",
    upstreamOnly: true,
    secret: true,
  },
  {
    name: "MCP_UPSTREAM_CLIENT_SECRET",
    description: "Token exchange: this server's client secret at the authorization server.",
    format: "string",
    upstreamOnly: true,
    secret: true,
  },
  {
    name: "MCP_HTTP_TOKEN",
    description: "HTTP only: the bearer token HTTP clients must send; unset: none is asked for.",
    format: "string",
    secret: true,
  },
  // OAuth protected resource (issue 17); HTTP only, off unless MCP_AUTH_ISSUER is set.
  {
    name: "MCP_AUTH_ISSUER",
    description:
      "HTTP only: authorization server(s) whose access tokens are accepted, comma-separated (--auth-issuer); unset: OAuth off.",
    format: "string",
  },
  {
    name: "MCP_AUTH_AUDIENCE",
    description:
      "HTTP only: the resource URL tokens must be issued for (--auth-audience); unset: the server's own /mcp URL.",
    format: "string",
  },
  {
    name: "MCP_AUTH_JWKS",
    description: "HTTP only: the issuer's JWKS URL (--auth-jwks); unset: jwks_uri from the issuer's metadata.",
    format: "string",
  },
  {
    name: "MCP_AUTH_INTROSPECTION",
    description: "HTTP only: RFC 7662 introspection endpoint for opaque tokens (--auth-introspection).",
    format: "string",
  },
  {
    name: "MCP_AUTH_CLIENT_ID",
    description: "HTTP only: this server's client id at the introspection endpoint.",
    format: "string",
    secret: true,
  },
  {
    name: "MCP_AUTH_CLIENT_SECRET",
    description: "HTTP only: this server's client secret at the introspection endpoint.",
    format: "string",
    secret: true,
  },
  {
    name: "MCP_AUTH_CACHE_SECONDS",
    description: "HTTP only: seconds an introspection answer is reused (0: never).",
    format: "number",
    default: "30",
  },
  {
    name: "MCP_LIST_ALL_TOOLS",
    description:
      "true: tools/list shows every tool whatever the token's scopes; calls still need them (--list-all-tools).",
    format: "boolean",
    default: "false",
  },
];

/** The names FLAG_TWINS covers (for the test that holds the list to spec-main.ts). */
export const FLAG_TWIN_NAMES = FLAG_TWINS.map((twin) => twin.name);

/** The upstream's credentials and server URL variables, then the flags' env twins; each name once. */
export function serverEnvVars(model: Model): ServerEnvVar[] {
  const upstream = model.server.upstream;
  const vars: ServerEnvVar[] = [];
  const schemes = upstream?.securitySchemes ?? [];
  // One scheme: every bound operation needs it. Several: any one of them may do, so none is required.
  const required = schemes.length === 1;
  const credential = (name: string, description: string, title: string) =>
    vars.push({ name, description, secret: true, required, format: "string", setting: { title } });
  for (const scheme of schemes) {
    if (scheme.type === "oauth2") {
      const use = `OAuth2 client credentials of scheme ${scheme.id} (token from ${scheme.tokenUrl})`;
      credential(scheme.clientIdEnv, `${use}: client id.`, `${scheme.id} client id`);
      credential(scheme.clientSecretEnv, `${use}: client secret.`, `${scheme.id} client secret`);
    } else if (scheme.type === "apiKey") {
      credential(scheme.env, `API key of scheme ${scheme.id}, sent in the ${scheme.in} ${scheme.name}.`, scheme.id);
    } else {
      const what = scheme.type === "basic" ? "user:password for HTTP basic auth" : "Bearer token";
      credential(scheme.env, `${what} (scheme ${scheme.id}).`, scheme.id);
    }
  }
  for (const [name, variable] of Object.entries(upstream?.variables ?? {})) {
    vars.push({
      name: variable.env,
      description: `Server URL variable ${name} of the upstream API.`,
      secret: false,
      required: false,
      format: "string",
      default: variable.default,
      ...(variable.enum ? { choices: variable.enum } : {}),
      setting: { title: `Server ${name}` },
    });
  }
  for (const { upstreamOnly, secret, ...twin } of FLAG_TWINS) {
    if (upstreamOnly && !upstream) continue;
    vars.push({ ...twin, secret: secret === true, required: false });
  }
  const seen = new Set<string>();
  return vars.filter((v) => !seen.has(v.name) && seen.add(v.name));
}
