// The runtime suite's per-feature HTTP rows (issue 32): the generated echo package with one serving feature on at a
// time, each with what it needs started locally: a key server and a signed token for --auth-issuer, a Redis server
// for --session-store. Features a package lacks exit 2, so these rows run a second echo package generated with them.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, createServer as createNetServer } from "node:net";
import { join } from "node:path";
import type { GeneratedServer } from "../lib/build.ts";
import { BIN, ECHO_SPEC, NODE, ROOT, SCRATCH } from "../lib/paths.ts";
import { timed } from "../lib/rounds.ts";

/** One row's server: the script, its extra flags, the headers its client sends. */
export type FeatureRun = {
  id: string;
  label: string;
  script: string;
  args: string[];
  headers?: Record<string, string>;
  env?: Record<string, string>; // added to the bench's environment
};
/** The rows, what must be stopped after them, and why a row is missing. */
export type FeatureRows = { runs: FeatureRun[]; skipped: string[]; stop(): Promise<void> };

const REDIS_SERVER = "/usr/bin/redis-server";
const AUDIENCE = "https://bench.invalid/mcp";

export async function featureRows(core: GeneratedServer): Promise<FeatureRows> {
  const script = featurePackage(core);
  const issuer = await startIssuer();
  const sink = await startOtlpSink();
  // --otel with its spans exported (always_on: every call traced and sent) and unsampled (always_off: ids made and
  // propagated, nothing recorded or sent), both against a local OTLP/HTTP sink.
  const otel = (sampler: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: sampler,
    OTEL_SERVICE_NAME: "bench",
  });
  const runs: FeatureRun[] = [
    { id: "metrics", label: "generated, --metrics", script, args: ["--metrics"] },
    { id: "log-json", label: "generated, --log-format json", script: core.jsEntry, args: ["--log-format", "json"] },
    { id: "otel", label: "generated, --otel (sampled, exported)", script, args: ["--otel"], env: otel("always_on") },
    {
      id: "otel-off",
      label: "generated, --otel (OTEL_TRACES_SAMPLER=always_off)",
      script,
      args: ["--otel"],
      env: otel("always_off"),
    },
    {
      id: "auth",
      label: "generated, --auth-issuer (local JWKS, ES256 token)",
      script,
      args: ["--auth-issuer", issuer.url, "--auth-jwks", `${issuer.url}/jwks`, "--auth-audience", AUDIENCE],
      headers: { authorization: `Bearer ${issuer.token}` },
    },
  ];
  const skipped: string[] = [];
  const redis = existsSync(REDIS_SERVER) ? await startRedis() : undefined;
  if (redis) {
    const url = `redis://127.0.0.1:${redis.port}/0`;
    runs.push({ id: "redis", label: "generated, --session-store (Redis)", script, args: ["--session-store", url] });
  } else skipped.push(`--session-store (Redis): ${REDIS_SERVER} is not installed`);
  return {
    runs,
    skipped,
    async stop() {
      issuer.server.close();
      issuer.server.closeAllConnections();
      sink.server.close();
      sink.server.closeAllConnections();
      redis?.child.kill("SIGTERM");
    },
  };
}

/** The echo package generated with the metrics, oauth, redis and otel features, its handler the core package's. */
function featurePackage(core: GeneratedServer): string {
  const dir = `${SCRATCH}gen/echo-features`;
  const run = () =>
    execFileSync(NODE, [BIN.mcpgen, "generate", ECHO_SPEC, "--out", dir, "--features", "metrics,oauth,redis,otel"], {
      cwd: ROOT,
      stdio: "pipe",
      timeout: 150_000,
    });
  timed("mcpgen generate bench/specs/echo.yaml --features metrics,oauth,redis,otel", run);
  copyFileSync(join(core.dir, "src/handlers/tools/echo.ts"), join(dir, "src/handlers/tools/echo.ts"));
  timed("mcpgen generate (edited handler)", run); // compiles the copied handler into dist/, as for the core package
  return join(dir, "dist/server.js");
}

/** An OTLP/HTTP receiver that accepts every export and keeps nothing (what a collector costs the server is its own). */
async function startOtlpSink(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.once("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A local authorization server as far as the resource server needs one: its JWKS, and a token it signed. */
async function startIssuer(): Promise<{ url: string; token: string; server: Server }> {
  const { exportJWK, generateKeyPair, SignJWT } = await import("jose");
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "bench", alg: "ES256", use: "sig" };
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = await new SignJWT({ scope: "mcp" })
    .setProtectedHeader({ alg: "ES256", kid: "bench" })
    .setIssuer(url)
    .setAudience(AUDIENCE)
    .setSubject("bench")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(privateKey);
  return { url, token, server };
}

/** redis-server on a free port, without persistence; resolves once it accepts connections. */
async function startRedis(): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await accepts(port)) return { port, child };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not listen on port ${port}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
