// The command line of a generated server (CONTRACT §3, §4): stdio by default, or
// `--http --port <n> [--host <addr>]` for Streamable HTTP at /mcp, and `--base-url <url>` to point the
// http bindings at another upstream; `--toolsets`, `--read-only` and `--mode` choose what it serves.
// Bad flags print usage and exit 2; nothing but protocol touches stdout.
import { parseArgs } from "node:util";
import { parseAuthConfig } from "../server/auth-config.ts";
import { log, setLogFormat } from "../server/log.ts";
import { serveHttp } from "../transport/http/server.ts";
import { SessionStoreStartError } from "../transport/http/session-store.ts";
import { parseStoreUrl } from "../transport/http/session-store-url.ts";
import { serveStdio } from "../transport/stdio/server.ts";
import { MIN_RESPONSE_TOKENS } from "./response-budget.ts";
import { SEALING_SECRET_USAGE, sealingSecrets } from "./sealing-secret.ts";
import { createSpecServer, type Manifest, type ServeMode, type SpecServerOptions } from "./spec-server.ts";
import {
  TOKEN_EXCHANGE_OPTIONS,
  TOKEN_EXCHANGE_USAGE,
  type TokenExchangeFlags,
  tokenExchangeConfig,
} from "./token-exchange-flags.ts";
import { DEFAULT_TOOLSET, parseToolsets } from "./tool-selection.ts";

const USAGE = `usage: server [--http [--port <n>] [--host <addr>] [--max-sessions <n>] [--session-store <url>]
                     [--shutdown-grace <ms>] [--shutdown-timeout <ms>]
                     [--metrics] [--metrics-port <n>]] [--log-format text|json]
                     [--base-url <url>]
                     [--max-upstream-body <n>] [--max-redirects <n>] [--max-response-tokens <n>]
                     [--toolsets <a,b>] [--read-only] [--mode all|dynamic|code] [--allow-destructive]
                     [--code-timeout <ms>] [--code-memory <MB>] [--code-max-calls <n>]
                     [--code-concurrency <n>]
                     [--auth-issuer <url>]... [--auth-audience <url>] [--auth-jwks <url>]
                     [--auth-introspection <url>] [--list-all-tools]
                     [--upstream-token-exchange <url> --upstream-audience <aud> [--upstream-scope <s>]]

  (no flags)        serve MCP over stdio
  --http            serve Streamable HTTP at http://<host>:<port>/mcp
  --port <n>        HTTP port (default 3000; 0 picks a free one)
  --host <addr>     HTTP interface (default 127.0.0.1)
  --max-sessions <n>
                    live 2025-era HTTP sessions at most (default 10000; env MCP_MAX_SESSIONS):
                    the least recently used idle one makes room, else initialize gets 503
  --shutdown-grace <ms>  on SIGTERM, how long /readyz answers 503 while requests are still served
                    (each answer closing its connection), before the listener closes (env
                    MCP_SHUTDOWN_GRACE_MS; default 0)
  --shutdown-timeout <ms>  on SIGTERM, how long requests in flight may take to finish, from the signal
                    (env MCP_SHUTDOWN_TIMEOUT_MS; default 30000); a second signal exits at once (code 1)
  --metrics         serve Prometheus metrics at GET /metrics on the HTTP port, behind the same
                    Host/Origin and token checks as /mcp (env MCP_METRICS=1; default off)
  --metrics-port <n>  serve them on a port of their own instead (same --host, no token: keep it on
                    the operator's network; env MCP_METRICS_PORT; implies --metrics)
  --log-format <f>  text (default) or json: one JSON object per stderr line, with an access line
                    per HTTP request carrying its X-Request-Id (env MCP_LOG_FORMAT)
  --session-store <url>  keep 2025-era sessions in Redis (redis://host:port/db, rediss:// for TLS;
                    env MCP_SESSION_STORE), shared by every instance given the same URL, so any
                    instance behind a load balancer serves any session; default: in this process
  --base-url <url>  upstream API base URL, overriding the spec's upstream.baseUrl (env MCP_BASE_URL)
  --max-upstream-body <n>  characters of an upstream answer passed on before it is cut
                    (env MCP_MAX_UPSTREAM_BODY; default 1000000)
  --max-redirects <n>  same-origin upstream redirects followed; other origins never are
                    (env MCP_MAX_REDIRECTS; default 5)
  --toolsets <a,b>  serve only these toolsets (env MCP_TOOLSETS; default all)
  --read-only       serve only tools marked readOnlyHint: true (env MCP_READ_ONLY=1)
  --mode <m>        all: tools/list gives every tool (default); dynamic: it gives five tools
                    to search, browse, describe and call the others; code: it gives search_docs
                    and execute, which runs the agent's code calling the tools in a sandbox (env MCP_MODE)
  --allow-destructive  code mode: let code call destructive tools without the client's
                    confirmation (env MCP_ALLOW_DESTRUCTIVE=1; default: ask through elicitation,
                    refuse when the client cannot be asked)
  --code-timeout <ms>  code mode: wall time of one execute (env MCP_CODE_TIMEOUT; default 30000)
  --code-memory <MB>   code mode: sandbox memory (env MCP_CODE_MEMORY; default 64)
  --code-max-calls <n> code mode: API calls per execute (env MCP_CODE_MAX_CALLS; default 50)
  --code-concurrency <n>  code mode: executes run at once, one sandbox thread each; the others wait
                    up to their timeout (env MCP_CODE_CONCURRENCY; default: the cores, at most 4)
  --max-response-tokens <n>  tokens (o200k) of a tool result before it is cut at whole list items or
                    lines, with a note naming the arguments that fetch the rest
                    (env MCP_MAX_RESPONSE_TOKENS; default 25000; at least 500)

OAuth (HTTP only; off unless --auth-issuer is given; not together with MCP_HTTP_TOKEN):
  --auth-issuer <url>  an authorization server whose access tokens are accepted; repeat it or
                    give a comma list for several (env MCP_AUTH_ISSUER)
  --auth-audience <url>  the resource tokens must be issued for (RFC 8707 audience; env
                    MCP_AUTH_AUDIENCE; default: this server's http://<host>:<port>/mcp URL)
  --auth-jwks <url>  the issuer's signing keys (env MCP_AUTH_JWKS; default: jwks_uri from the
                    issuer's RFC 8414 / OpenID Connect metadata)
  --auth-introspection <url>  RFC 7662 introspection for opaque tokens (env
                    MCP_AUTH_INTROSPECTION), as the client MCP_AUTH_CLIENT_ID / MCP_AUTH_CLIENT_SECRET;
                    answers reused for MCP_AUTH_CACHE_SECONDS (default 30; 0: never)
  --list-all-tools  list every tool whatever the token's scopes; calls still need them
                    (env MCP_LIST_ALL_TOOLS=1)

Per-user upstream credentials (HTTP with --auth-issuer; off unless --upstream-token-exchange is given):
${TOKEN_EXCHANGE_USAGE}

Environment: MCP_HTTP_TOKEN, when set, is the bearer token HTTP clients must send;
MCP_MAX_SESSIONS is the default of --max-sessions.
${SEALING_SECRET_USAGE}`;

export async function runSpecServer(
  manifest: Manifest,
  options: SpecServerOptions,
  argv = process.argv.slice(2),
): Promise<void> {
  let flags: {
    http?: boolean;
    port?: string;
    host?: string;
    "max-sessions"?: string;
    "session-store"?: string;
    "shutdown-grace"?: string;
    "shutdown-timeout"?: string;
    metrics?: boolean;
    "metrics-port"?: string;
    "log-format"?: string;
    "base-url"?: string;
    "max-upstream-body"?: string;
    "max-redirects"?: string;
    toolsets?: string;
    "read-only"?: boolean;
    mode?: string;
    "max-response-tokens"?: string;
    "allow-destructive"?: boolean;
    "code-timeout"?: string;
    "code-memory"?: string;
    "code-max-calls"?: string;
    "code-concurrency"?: string;
    "auth-issuer"?: string[];
    "auth-audience"?: string;
    "auth-jwks"?: string;
    "auth-introspection"?: string;
    "list-all-tools"?: boolean;
    help?: boolean;
  } & TokenExchangeFlags;
  try {
    flags = parseArgs({
      args: argv,
      options: {
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        "max-sessions": { type: "string" },
        "session-store": { type: "string" },
        "shutdown-grace": { type: "string" },
        "shutdown-timeout": { type: "string" },
        metrics: { type: "boolean" },
        "metrics-port": { type: "string" },
        "log-format": { type: "string" },
        "base-url": { type: "string" },
        "max-upstream-body": { type: "string" },
        "max-redirects": { type: "string" },
        toolsets: { type: "string" },
        "read-only": { type: "boolean" },
        mode: { type: "string" },
        "max-response-tokens": { type: "string" },
        "allow-destructive": { type: "boolean" },
        "code-timeout": { type: "string" },
        "code-memory": { type: "string" },
        "code-max-calls": { type: "string" },
        "code-concurrency": { type: "string" },
        "auth-issuer": { type: "string", multiple: true },
        "auth-audience": { type: "string" },
        "auth-jwks": { type: "string" },
        "auth-introspection": { type: "string" },
        "list-all-tools": { type: "boolean" },
        ...TOKEN_EXCHANGE_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (flags.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const port = flags.port === undefined ? 3000 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return usageError(`--port must be 0-65535, not '${flags.port}'`);
  // MCP_BASE_URL: the env twin, for clients that configure a server by environment only (an MCPB bundle's user_config).
  const baseUrl = flags["base-url"] ?? envValue("MCP_BASE_URL");
  if (baseUrl !== undefined && !/^https?:\/\/./i.test(baseUrl))
    return usageError(
      `${flags["base-url"] === undefined ? "MCP_BASE_URL" : "--base-url"} must be an http(s) URL, not '${baseUrl}'`,
    );
  if (
    !flags.http &&
    (flags.port !== undefined ||
      flags.host !== undefined ||
      flags["max-sessions"] !== undefined ||
      flags["session-store"] !== undefined ||
      flags["shutdown-grace"] !== undefined ||
      flags["shutdown-timeout"] !== undefined ||
      flags.metrics !== undefined ||
      flags["metrics-port"] !== undefined)
  )
    return usageError("--port, --host, --max-sessions, --session-store, --shutdown-* and --metrics* need --http");
  const logFormat = flags["log-format"] ?? envValue("MCP_LOG_FORMAT") ?? "text";
  if (logFormat !== "text" && logFormat !== "json")
    return usageError(
      `${flags["log-format"] === undefined ? "MCP_LOG_FORMAT" : "--log-format"} must be text or json, not '${logFormat}'`,
    );
  setLogFormat(logFormat);
  const metricsPort = wholeNumber(
    "metrics-port",
    flags["metrics-port"],
    flags.http ? "MCP_METRICS_PORT" : undefined,
    0,
  );
  if (typeof metricsPort === "string") return usageError(metricsPort);
  if (metricsPort !== undefined && metricsPort > 65535)
    return usageError(`--metrics-port must be 0-65535, not '${metricsPort}'`);
  const metricsText = flags.http ? envValue("MCP_METRICS") : undefined;
  if (metricsText !== undefined && !["1", "0", "true", "false"].includes(metricsText.toLowerCase()))
    return usageError(`MCP_METRICS must be 1 (or true) to serve /metrics, or 0 (or false), not '${metricsText}'`);
  const metrics =
    flags.metrics === true || metricsPort !== undefined || metricsText === "1" || metricsText?.toLowerCase() === "true";
  // MCP_SESSION_STORE matters only for HTTP: a stdio server ignores it rather than refusing to start.
  const sessionStore = flags["session-store"] ?? (flags.http ? envValue("MCP_SESSION_STORE") : undefined);
  if (sessionStore !== undefined) {
    const parsed = parseStoreUrl(sessionStore);
    if ("error" in parsed)
      return usageError(
        `${flags["session-store"] === undefined ? "MCP_SESSION_STORE" : "--session-store"} ${parsed.error}`,
      );
  }
  // MCP_MAX_SESSIONS matters only for HTTP: a stdio server ignores it rather than refusing to start.
  const maxSessions = wholeNumber(
    "max-sessions",
    flags["max-sessions"],
    flags.http ? "MCP_MAX_SESSIONS" : undefined,
    1,
  );
  const maxBody = wholeNumber("max-upstream-body", flags["max-upstream-body"], "MCP_MAX_UPSTREAM_BODY", 1);
  const maxRedirects = wholeNumber("max-redirects", flags["max-redirects"], "MCP_MAX_REDIRECTS", 0);
  if (typeof maxSessions === "string") return usageError(maxSessions);
  const grace = wholeNumber(
    "shutdown-grace",
    flags["shutdown-grace"],
    flags.http ? "MCP_SHUTDOWN_GRACE_MS" : undefined,
    0,
  );
  if (typeof grace === "string") return usageError(grace);
  const shutdownTimeout = wholeNumber(
    "shutdown-timeout",
    flags["shutdown-timeout"],
    flags.http ? "MCP_SHUTDOWN_TIMEOUT_MS" : undefined,
    0,
  );
  if (typeof shutdownTimeout === "string") return usageError(shutdownTimeout);
  if (typeof maxBody === "string") return usageError(maxBody);
  if (typeof maxRedirects === "string") return usageError(maxRedirects);
  const serving = servingFlags(manifest, flags);
  if (typeof serving === "string") return usageError(serving);
  const budget = responseBudget(flags["max-response-tokens"]);
  if (typeof budget === "string") return usageError(budget);
  const code = codeFlags(flags);
  if (typeof code === "string") return usageError(code);
  const auth = parseAuthConfig(flags, flags.http ? process.env : {});
  if (typeof auth === "string") return usageError(auth);
  if (!flags.http && flags["auth-issuer"]?.length)
    return usageError("--auth-issuer needs --http: OAuth protects the HTTP transport");
  const token = process.env.MCP_HTTP_TOKEN;
  if (auth && token)
    return usageError(
      "MCP_HTTP_TOKEN and --auth-issuer (or MCP_AUTH_ISSUER) are both set: the static token is for local use, OAuth for remote; unset one",
    );
  const tokenExchange = tokenExchangeConfig(flags, flags.http === true);
  if (typeof tokenExchange === "string") return usageError(tokenExchange);
  if (tokenExchange && !auth)
    return usageError(
      "--upstream-token-exchange needs --auth-issuer (or MCP_AUTH_ISSUER): it exchanges each caller's validated token",
    );

  const secret = sealingSecrets();
  if (typeof secret === "string") return usageError(secret);

  const server = createSpecServer(manifest, {
    ...options,
    ...(secret ? { serverOptions: { ...options.serverOptions, secret } } : {}),
    ...serving,
    ...(baseUrl ? { baseUrl } : {}),
    ...(maxBody !== undefined ? { maxUpstreamBody: maxBody } : {}),
    ...(maxRedirects !== undefined ? { maxRedirects } : {}),
    ...budget,
    ...code,
    ...(auth?.listAllTools ? { listAllTools: true } : {}),
    ...(tokenExchange ? { tokenExchange } : {}),
  });
  if (!flags.http) {
    serveStdio(server);
    return;
  }
  try {
    const handle = await serveHttp(server, {
      ...(auth ? { auth } : {}),
      port,
      host: flags.host ?? "127.0.0.1",
      ...(token ? { bearerToken: token } : {}),
      ...(maxSessions === undefined ? {} : { maxSessions }),
      ...(grace === undefined ? {} : { shutdownGraceMs: grace }),
      ...(shutdownTimeout === undefined ? {} : { shutdownTimeoutMs: shutdownTimeout }),
      ...(sessionStore === undefined ? {} : { sessionStore }),
      ...(metrics ? { metrics } : {}),
      ...(metricsPort === undefined ? {} : { metricsPort }),
      log: (line) => log("warn", line),
    });
    log("info", `${manifest.server.name} listening on ${handle.url}`, { url: handle.url });
    if (handle.metricsUrl) log("info", `metrics at ${handle.metricsUrl}`, { url: handle.metricsUrl });
    // The first signal drains (see runtime/transport/http/drain.ts) and exits 0; a second one does not
    // wait: exit 1, what was still running is cut off.
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      void handle.close().then(() => process.exit(0));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  } catch (error) {
    if (error instanceof SessionStoreStartError) {
      log("error", `${error.message} (start Redis, or check --session-store / MCP_SESSION_STORE)`);
      process.exit(1);
    }
    log("error", `cannot listen on ${flags.host ?? "127.0.0.1"}:${port}: ${(error as Error).message}`);
    process.exit(1);
  }
}

const MODES: readonly ServeMode[] = ["all", "dynamic", "code"];

/** Code mode's flags (or their env twins) as server options, or the usage error. */
function codeFlags(flags: {
  "allow-destructive"?: boolean;
  "code-timeout"?: string;
  "code-memory"?: string;
  "code-max-calls"?: string;
  "code-concurrency"?: string;
}): Pick<SpecServerOptions, "codeLimits" | "allowDestructive" | "codeConcurrency"> | string {
  const timeoutMs = wholeNumber("code-timeout", flags["code-timeout"], "MCP_CODE_TIMEOUT", 1);
  if (typeof timeoutMs === "string") return timeoutMs;
  const memoryMb = wholeNumber("code-memory", flags["code-memory"], "MCP_CODE_MEMORY", 1);
  if (typeof memoryMb === "string") return memoryMb;
  const maxCalls = wholeNumber("code-max-calls", flags["code-max-calls"], "MCP_CODE_MAX_CALLS", 0);
  if (typeof maxCalls === "string") return maxCalls;
  const concurrency = wholeNumber("code-concurrency", flags["code-concurrency"], "MCP_CODE_CONCURRENCY", 1);
  if (typeof concurrency === "string") return concurrency;
  const allowText = envValue("MCP_ALLOW_DESTRUCTIVE");
  if (allowText !== undefined && !["1", "0", "true", "false"].includes(allowText.toLowerCase()))
    return `MCP_ALLOW_DESTRUCTIVE must be 1 (or true) to let code call destructive tools unconfirmed, or 0 (or false), not '${allowText}'`;
  const allowDestructive =
    flags["allow-destructive"] === true || allowText === "1" || allowText?.toLowerCase() === "true";
  const codeLimits = {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(memoryMb !== undefined ? { memoryBytes: memoryMb * 1024 * 1024 } : {}),
    ...(maxCalls !== undefined ? { maxCalls } : {}),
  };
  return {
    ...(Object.keys(codeLimits).length > 0 ? { codeLimits } : {}),
    ...(allowDestructive ? { allowDestructive } : {}),
    ...(concurrency !== undefined ? { codeConcurrency: concurrency } : {}),
  };
}

/** --toolsets, --read-only and --mode (or their env twins) as server options, or the usage error. */
function servingFlags(
  manifest: Manifest,
  flags: { toolsets?: string; "read-only"?: boolean; mode?: string },
): Pick<SpecServerOptions, "toolsets" | "readOnly" | "mode"> | string {
  const mode = flags.mode ?? envValue("MCP_MODE");
  const modeSource = flags.mode === undefined ? "MCP_MODE" : "--mode";
  if (mode !== undefined && !MODES.includes(mode as ServeMode))
    return `${modeSource} must be one of ${MODES.join(", ")}, not '${mode}'`;
  const readOnlyText = envValue("MCP_READ_ONLY");
  if (readOnlyText !== undefined && !["1", "0", "true", "false"].includes(readOnlyText.toLowerCase()))
    return `MCP_READ_ONLY must be 1 (or true) to serve only read-only tools, or 0 (or false), not '${readOnlyText}'`;
  const readOnly = flags["read-only"] === true || readOnlyText === "1" || readOnlyText?.toLowerCase() === "true";
  const toolsetsText = flags.toolsets ?? envValue("MCP_TOOLSETS");
  let toolsets: string[] | undefined;
  if (toolsetsText !== undefined) {
    const known = manifest.toolsetNames ?? [DEFAULT_TOOLSET];
    const parsed = parseToolsets(toolsetsText, known, flags.toolsets === undefined ? "MCP_TOOLSETS" : "--toolsets");
    if ("error" in parsed) return parsed.error;
    toolsets = parsed.toolsets;
  }
  return {
    ...(toolsets ? { toolsets } : {}),
    ...(readOnly ? { readOnly } : {}),
    ...(mode ? { mode: mode as ServeMode } : {}),
  };
}

/** An environment variable, undefined when unset or empty. */
function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

/** --max-response-tokens (else MCP_MAX_RESPONSE_TOKENS) as a server option, or the usage error. */
function responseBudget(given: string | undefined): { maxResponseTokens?: number } | string {
  const tokens = wholeNumber("max-response-tokens", given, "MCP_MAX_RESPONSE_TOKENS", MIN_RESPONSE_TOKENS);
  if (typeof tokens === "string") return tokens;
  return tokens === undefined ? {} : { maxResponseTokens: tokens };
}

/** A whole-number flag, else its environment twin: the number, undefined when neither is set, or the
 * usage error naming whichever of the two held the bad value. */
function wholeNumber(flag: string, given: string | undefined, env: string | undefined, min: number) {
  const text = given ?? (env === undefined ? undefined : process.env[env]);
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (Number.isSafeInteger(value) && value >= min) return value;
  return `${given === undefined ? env : `--${flag}`} must be a whole number >= ${min}, not '${text}'`;
}

function usageError(message: string): void {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}
