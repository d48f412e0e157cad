// The command line of a generated server: stdio by default, or `--http` for Streamable HTTP at /mcp; every
// flag and env twin is a record of server-flags.ts, read by flag-parser.ts. Bad flags print the usage and
// exit 2; nothing but protocol touches stdout.
import { type AuthFlags, parseAuthConfig } from "../server/auth-config.ts";
import { log, setLogFormat } from "../server/log.ts";
import { serveHttp } from "../transport/http/server.ts";
import { SessionStoreStartError } from "../transport/http/session-store.ts";
import { parseStoreUrl } from "../transport/http/session-store-url.ts";
import { serveStdio } from "../transport/stdio/server.ts";
import { type Feature, type FeatureName, httpFeatures, modeFeature } from "./feature.ts";
import { type FlagValue, type ParsedFlags, parseFlags, usageText } from "./flag-parser.ts";
import { sealingSecrets } from "./sealing-secret.ts";
import { SERVER_FLAGS } from "./server-flags.ts";
import { createSpecServer, type Manifest, type ServeMode, type SpecServerOptions } from "./spec-server.ts";
import { type TokenExchangeFlags, tokenExchangeConfig } from "./token-exchange-flags.ts";
import { DEFAULT_TOOLSET, parseToolsets } from "./tool-selection.ts";

export async function runSpecServer(
  manifest: Manifest,
  options: SpecServerOptions,
  argv = process.argv.slice(2),
): Promise<void> {
  const parsed = parseFlags(SERVER_FLAGS, argv, process.env);
  if ("error" in parsed) return usageError(parsed.error);
  if (parsed.help) {
    process.stderr.write(`${usageText(SERVER_FLAGS)}\n`);
    return;
  }
  const { values, given } = parsed;
  const http = parsed.http;
  const flags = given as AuthFlags & TokenExchangeFlags;
  const port = (values.port as number | undefined) ?? 3000;
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  const baseUrl = values["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/./i.test(baseUrl))
    return usageError(`${parsed.sources["base-url"]} must be an http(s) URL, not '${baseUrl}'`);
  setLogFormat((values["log-format"] as "text" | "json" | undefined) ?? "text");
  const metricsPort = values["metrics-port"] as number | undefined;
  const metrics = values.metrics === true || metricsPort !== undefined;
  const sessionStore = values["session-store"] as string | undefined;
  if (sessionStore !== undefined) {
    const store = parseStoreUrl(sessionStore);
    if ("error" in store) return usageError(`${parsed.sources["session-store"]} ${store.error}`);
  }
  const serving = servingFlags(manifest, parsed);
  if (typeof serving === "string") return usageError(serving);
  const auth = parseAuthConfig(flags, http ? process.env : {});
  if (typeof auth === "string") return usageError(auth);
  if (!http && flags["auth-issuer"]?.length)
    return usageError("--auth-issuer needs --http: OAuth protects the HTTP transport");
  const token = process.env.MCP_HTTP_TOKEN;
  if (auth && token)
    return usageError(
      "MCP_HTTP_TOKEN and --auth-issuer (or MCP_AUTH_ISSUER) are both set: the static token is for local use, OAuth for remote; unset one",
    );
  const tokenExchange = tokenExchangeConfig(flags, http);
  if (typeof tokenExchange === "string") return usageError(tokenExchange);
  if (tokenExchange && !auth)
    return usageError(
      "--upstream-token-exchange needs --auth-issuer (or MCP_AUTH_ISSUER): it exchanges each caller's validated token",
    );
  const missing = missingFeature(options.features ?? [], values, auth !== undefined);
  if (missing) return featureError(missing);
  const secret = sealingSecrets();
  if (typeof secret === "string") return usageError(secret);
  const maxBody = values["max-upstream-body"] as number | undefined;
  const maxRedirects = values["max-redirects"] as number | undefined;
  const maxResponseTokens = values["max-response-tokens"] as number | undefined;

  const server = createSpecServer(manifest, {
    ...options,
    ...(secret ? { serverOptions: { ...options.serverOptions, secret } } : {}),
    ...serving,
    ...(baseUrl ? { baseUrl } : {}),
    ...(maxBody !== undefined ? { maxUpstreamBody: maxBody } : {}),
    ...(maxRedirects !== undefined ? { maxRedirects } : {}),
    ...(maxResponseTokens !== undefined ? { maxResponseTokens } : {}),
    ...codeFlags(values),
    ...(auth?.listAllTools ? { listAllTools: true } : {}),
    ...(tokenExchange ? { tokenExchange } : {}),
  });
  if (!http) {
    serveStdio(server);
    return;
  }
  try {
    const handle = await serveHttp(server, {
      ...(auth ? { auth } : {}),
      port,
      host,
      ...(token ? { bearerToken: token } : {}),
      ...optional("maxSessions", values["max-sessions"]),
      ...optional("shutdownGraceMs", values["shutdown-grace"]),
      ...optional("shutdownTimeoutMs", values["shutdown-timeout"]),
      ...(sessionStore === undefined ? {} : { sessionStore }),
      ...(metrics ? { metrics } : {}),
      ...(metricsPort === undefined ? {} : { metricsPort }),
      log: (line) => log("warn", line),
      features: httpFeatures(options.features ?? []),
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
    log("error", `cannot listen on ${host}:${port}: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** `{ [key]: value }` when the value is set, else nothing (options keep their defaults). */
function optional<K extends string>(key: K, value: FlagValue | undefined): { [k in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: number };
}

/** Code mode's flags (or their env twins) as server options. */
function codeFlags(
  values: ParsedFlags["values"],
): Pick<SpecServerOptions, "codeLimits" | "allowDestructive" | "codeConcurrency"> {
  const memoryMb = values["code-memory"] as number | undefined;
  const codeLimits = {
    ...optional("timeoutMs", values["code-timeout"]),
    ...(memoryMb !== undefined ? { memoryBytes: memoryMb * 1024 * 1024 } : {}),
    ...optional("maxCalls", values["code-max-calls"]),
  };
  return {
    ...(Object.keys(codeLimits).length > 0 ? { codeLimits } : {}),
    ...(values["allow-destructive"] === true ? { allowDestructive: true } : {}),
    ...optional("codeConcurrency", values["code-concurrency"]),
  };
}

/** --toolsets, --read-only and --mode (or their env twins) as server options, or the usage error. */
function servingFlags(
  manifest: Manifest,
  { values, sources }: ParsedFlags,
): Pick<SpecServerOptions, "toolsets" | "readOnly" | "mode"> | string {
  const toolsetsText = values.toolsets as string | undefined;
  let toolsets: string[] | undefined;
  if (toolsetsText !== undefined) {
    const known = manifest.toolsetNames ?? [DEFAULT_TOOLSET];
    const parsed = parseToolsets(toolsetsText, known, sources.toolsets);
    if ("error" in parsed) return parsed.error;
    toolsets = parsed.toolsets;
  }
  return {
    ...(toolsets ? { toolsets } : {}),
    ...(values["read-only"] === true ? { readOnly: true } : {}),
    ...(values.mode ? { mode: values.mode as ServeMode } : {}),
  };
}

/** The first flag given whose feature the package lacks, as `[flag, feature]`. */
function missingFeature(
  features: readonly Feature[],
  values: ParsedFlags["values"],
  auth: boolean,
): [string, FeatureName] | undefined {
  const has = (name: FeatureName) => features.some((feature) => feature.name === name);
  const mode = values.mode as string | undefined;
  if (mode && mode !== "all" && !modeFeature(features, mode)) return [`--mode ${mode}`, mode as FeatureName];
  if (values["session-store"] !== undefined && !has("redis")) return ["--session-store", "redis"];
  if ((values.metrics !== undefined || values["metrics-port"] !== undefined) && !has("metrics"))
    return ["--metrics", "metrics"];
  if (auth && !has("oauth")) return ["--auth-issuer", "oauth"];
  return undefined;
}

/** One line naming the feature a flag needs and how to add it; exit 2. */
function featureError([flag, feature]: [string, FeatureName]): void {
  process.stderr.write(
    `${flag} needs the '${feature}' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again\n`,
  );
  process.exit(2);
}

function usageError(message: string): void {
  process.stderr.write(`${message}\n\n${usageText(SERVER_FLAGS)}\n`);
  process.exit(2);
}
