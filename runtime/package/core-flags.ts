// The core's flag records (the features' are in features/*/flags.ts), and a package's table made of them. The
// generator reads both and writes the package's table into its src/server.ts: a package carries its own flags
// as data, not this file.
import type { FlagSet, ServerFlag } from "./server-flags.ts";

export const CORE_FLAG_SETS: readonly FlagSet[] = [
  {
    group: "core",
    title: "Serving",
    flags: [
      { flag: "http", kind: "boolean", help: "serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio" },
      {
        flag: "port",
        kind: "whole",
        arg: "<n>",
        min: 0,
        max: 65535,
        default: "3000",
        http: true,
        help: "HTTP port (0 picks a free one)",
      },
      { flag: "host", kind: "string", arg: "<addr>", default: "127.0.0.1", http: true, help: "HTTP interface" },
      {
        env: "MCP_HTTP_TOKEN",
        kind: "string",
        secret: true,
        help: "the bearer token HTTP clients must send (local use; not together with --auth-issuer); unset: none is asked for",
      },
      {
        env: "MCP_SEALING_SECRET",
        kind: "string",
        secret: true,
        defaultText: "the --session-store's, else random per process",
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
        help: "live 2025-era HTTP sessions at most: the least recently used idle one makes room, else initialize gets 503",
        doc: "live 2025-era HTTP sessions at most; when full, the least recently used idle session (nothing in flight, no open stream) is ended to make room, and when all are busy `initialize` gets HTTP 503 (JSON-RPC `-32603`, `Retry-After: 5`)",
      },
    ],
  },
  {
    group: "drain",
    title: "Shutdown (HTTP)",
    flags: [
      {
        flag: "shutdown-grace",
        env: "MCP_SHUTDOWN_GRACE_MS",
        kind: "whole",
        arg: "<ms>",
        min: 0,
        default: "0",
        http: true,
        help: "on SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes",
        doc: "on SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes; from then on each answer closes its connection. Above 0 (behind a proxy), connections left open then stay open until the proxy closes them or they idle out (5 s), so a request the proxy sends on one gets a 503 and goes to another instance instead of being lost",
      },
      {
        flag: "shutdown-timeout",
        env: "MCP_SHUTDOWN_TIMEOUT_MS",
        kind: "whole",
        arg: "<ms>",
        min: 0,
        default: "30000",
        http: true,
        help: "on SIGTERM, how long requests in flight may take to finish, from the signal; a second signal exits at once (code 1)",
        doc: "on SIGTERM, how long requests in flight may take to finish, counted from the signal; then they get a JSON-RPC error and the server exits 0 (a second signal: exit 1 at once). See [Deploy several instances](#deploy-several-instances)",
      },
    ],
  },
  {
    group: "logs",
    title: "Logs",
    flags: [
      {
        flag: "log-format",
        env: "MCP_LOG_FORMAT",
        kind: "choice",
        arg: "text|json",
        choices: ["text", "json"],
        default: "text",
        help: "json: one JSON object per stderr line, plus an access line per HTTP request with its X-Request-Id (never arguments, results or tokens)",
      },
    ],
  },
  {
    group: "upstream",
    title: "The upstream API",
    flags: [
      {
        flag: "base-url",
        env: "MCP_BASE_URL",
        kind: "string",
        arg: "<url>",
        defaultText: "the spec's upstream.baseUrl",
        upstream: true,
        setting: "API base URL",
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
        help: "same-origin upstream redirects followed per request; other origins never are",
        doc: "same-origin redirects (same scheme, host and port) followed per request; a redirect to another origin is never followed, so credentials never reach it: the result is an `isError` naming the target",
      },
    ],
  },
  {
    group: "toolsets",
    title: "Which tools are served",
    flags: [
      {
        flag: "toolsets",
        env: "MCP_TOOLSETS",
        kind: "string",
        arg: "<a,b>",
        default: "all",
        setting: "Toolsets",
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
        help: "all: tools/list gives every tool; dynamic: five tools to search, browse, describe and call the others; code: search_docs and execute, which runs the agent's code calling the tools in a sandbox",
        doc: "`dynamic`: `tools/list` gives five tools to search, browse, describe and call the others; `code`: it gives `search_docs` and `execute` (see [Code mode](#code-mode))",
      },
    ],
  },
];

/** A package's flag sets: the core's, --mode offering `modes` besides `all`, then its features' own. */
export function packageFlagSets(featureSets: readonly FlagSet[], modes: readonly string[]): FlagSet[] {
  const choices = ["all", ...modes];
  // --mode's help and doc keep the `name: what it does` parts of those modes (and every unnamed part).
  const keep = (text: string) =>
    text
      .split("; ")
      .filter((part) => choices.includes(/^`?([a-z]+)`?: /.exec(part)?.[1] ?? "all"))
      .join("; ");
  const modeFlag = (flag: ServerFlag) => ({ ...flag, arg: choices.join("|"), choices, help: keep(flag.help) });
  const withDoc = (flag: ServerFlag) => ({ ...modeFlag(flag), ...(flag.doc ? { doc: keep(flag.doc) } : {}) });
  const core = CORE_FLAG_SETS.map((set) => ({
    ...set,
    flags: set.flags.map((f) => (f.flag === "mode" ? withDoc(f) : f)),
  }));
  return [...core, ...featureSets];
}
