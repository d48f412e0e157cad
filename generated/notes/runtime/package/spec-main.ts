// The command line of a generated server: stdio, or `--http` for Streamable HTTP at /mcp. Bad flags print the
// usage and exit 2; a flag of a feature the package lacks exits 2 naming it; only protocol touches stdout.
import { log, setLogFormat } from "../server/log.ts";
import { serveStdio } from "../transport/stdio/server.ts";
import type { FeatureSetup } from "./feature.ts";
import { optional, type ParsedFlags, parseFlags, usageText } from "./flag-parser.ts";
import type { FeatureName, FlagSet } from "./server-flags.ts";
import { createSpecServer, type ServerDefinition, type SpecServerOptions } from "./spec-server.ts";
import { parseToolsets } from "./tool-selection.ts";

/** The flags and env twins (`httpEnv`: counted over HTTP only) of a feature the package was generated without. */
export type AbsentFeature = {
  feature: FeatureName;
  flags?: readonly string[];
  env?: readonly string[];
  httpEnv?: readonly string[];
};

/** `flagSets`: the package's flag table, which the generator writes into src/server.ts (core-flags.ts packageFlagSets). */
export type RunOptions = SpecServerOptions & {
  flagSets: readonly FlagSet[];
  absentFeatures?: readonly AbsentFeature[];
};

export async function runSpecServer(definition: ServerDefinition, options: RunOptions, argv = process.argv.slice(2)) {
  const { absentFeatures = [], flagSets: sets, ...serverOptions } = options;
  const features = options.features ?? [];
  refuseAbsentFeatures(absentFeatures, argv, process.env);
  const parsed = parseFlags(sets, argv, process.env);
  if ("error" in parsed) return usageError(sets, parsed.error);
  if (parsed.help) return void process.stderr.write(`${usageText(sets)}\n`);
  const { values, http } = parsed;
  setLogFormat((values["log-format"] as "text" | "json" | undefined) ?? "text");
  const core = coreOptions(definition, parsed, options);
  if (typeof core === "string") return usageError(sets, core);
  let setup: FeatureSetup = {};
  for (const feature of features) {
    const made = feature.configure?.({ ...parsed, env: process.env, earlier: setup });
    if (typeof made === "string") return usageError(sets, made);
    setup = { server: { ...setup.server, ...made?.server }, http: { ...setup.http, ...made?.http } };
  }
  const server = createSpecServer(definition, { ...serverOptions, ...core, ...setup.server });
  if (!http) return void serveStdio(server);
  const port = (values.port as number | undefined) ?? 3000;
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  // Imported here, not at the top: a stdio server never loads node:http and the HTTP transport (start-up).
  const [{ serveHttp }, { SessionStoreStartError }] = await Promise.all([
    import("../transport/http/server.ts"),
    import("../transport/http/session-store.ts"),
  ]);
  try {
    const handle = await serveHttp(server, {
      port,
      host,
      ...(process.env.MCP_HTTP_TOKEN ? { bearerToken: process.env.MCP_HTTP_TOKEN } : {}),
      ...optional("maxSessions", values["max-sessions"]),
      ...optional("shutdownGraceMs", values["shutdown-grace"]),
      ...optional("shutdownTimeoutMs", values["shutdown-timeout"]),
      ...setup.http,
      log: (line) => log("warn", line),
      features: Object.assign({}, ...features.map((feature) => feature.http ?? {})),
    });
    log("info", `${definition.server.name} listening on ${handle.url}`, { url: handle.url });
    // The first signal drains (transport/http/drain.ts) and exits 0; a second one exits 1 at once.
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      void handle.close().then(() => process.exit(0));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  } catch (error) {
    const { message } = error as Error;
    if (error instanceof SessionStoreStartError)
      log("error", `${message} (start Redis, or check --session-store / MCP_SESSION_STORE)`);
    else log("error", `cannot listen on ${host}:${port}: ${message}`);
    process.exit(1);
  }
}

function coreOptions(definition: ServerDefinition, { values, sources }: ParsedFlags, options: RunOptions) {
  const baseUrl = values["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/./i.test(baseUrl))
    return `${sources["base-url"]} must be an http(s) URL, not '${baseUrl}'`;
  const toolsets = parseToolsets(values.toolsets, sources.toolsets, definition.toolsetNames);
  if ("error" in toolsets) return toolsets.error;
  const secret = sealingSecrets();
  if (typeof secret === "string") return secret;
  return {
    ...(secret ? { serverOptions: { ...options.serverOptions, secret } } : {}),
    ...(toolsets.toolsets ? { toolsets: toolsets.toolsets } : {}),
    ...(values["read-only"] === true ? { readOnly: true } : {}),
    ...(values.mode ? { mode: values.mode as SpecServerOptions["mode"] } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...optional("maxUpstreamBody", values["max-upstream-body"]),
    ...optional("maxRedirects", values["max-redirects"]),
  };
}

/** Exits 2 at the first flag (or set env twin) of a feature the package lacks, naming it and how to add it. */
function refuseAbsentFeatures(absent: readonly AbsentFeature[], argv: readonly string[], env: NodeJS.ProcessEnv) {
  const http = argv.includes("--http");
  const given = new Set(argv.flatMap((arg) => (arg.startsWith("--") ? [arg.slice(2).split("=")[0]] : [])));
  const at = argv.map((arg) => arg === "--mode" || arg.startsWith("--mode=")).lastIndexOf(true);
  const mode = at < 0 ? env.MCP_MODE : argv[at].startsWith("--mode=") ? argv[at].slice(7) : argv[at + 1];
  for (const { feature, flags = [], env: names = [], httpEnv = [] } of absent) {
    const flag = flags.find((name) => given.has(name));
    const what =
      mode === feature
        ? `${at < 0 ? "MCP_MODE=" : "--mode "}${mode}`
        : flag
          ? `--${flag}`
          : [...names, ...(http ? httpEnv : [])].find((name) => env[name]);
    if (!what) continue;
    process.stderr.write(
      `${what} needs the '${feature}' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again\n`,
    );
    process.exit(2);
  }
}

function usageError(sets: readonly FlagSet[], message: string): void {
  process.stderr.write(`${message}\n\n${usageText(sets)}\n`);
  process.exit(2);
}

// MCP_SEALING_SECRET (env only: a flag would show in `ps`): shared by every instance behind a load balancer so a
// token one issued opens on the next; the first seals, every one opens; 32 random characters hold 128+ bits.
export function sealingSecrets(env: NodeJS.ProcessEnv = process.env): Uint8Array[] | undefined | string {
  const text = env.MCP_SEALING_SECRET;
  if (text === undefined || text === "") return undefined;
  const secrets = text.split(",").map((secret) => secret.trim());
  if (secrets.some((secret) => secret.length < 32))
    return "MCP_SEALING_SECRET must hold secrets of at least 32 characters each (comma-separated), e.g. from `openssl rand -base64 32`";
  return secrets.map((secret) => Buffer.from(secret, "utf8"));
}
