/** Shared pieces of the generator tests: running generated servers as real processes, and a real upstream API. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");

/** A fresh scratch directory inside the repository (git-ignored .tmp/), so generated packages resolve its node_modules. */
export function scratchDir(prefix: string): string {
  const base = join(ROOT, ".tmp/tests");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

/** node + tsx, the way a user runs a generated server (docs/getting-started.md, before dist/: npx tsx <dir>/src/server.ts). */
export function serverCommand(pkgDir: string, extra: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", join(pkgDir, "src/server.ts"), ...extra] };
}

export type RunningHttpServer = {
  url: string;
  process: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
};

/** Starts a generated server with --http on a free port and waits for its "listening on <url>" line. */
export function startHttpServer(
  pkgDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<RunningHttpServer> {
  return startHttpProcess(join(pkgDir, "src/server.ts"), env, [], ["--port", "0", ...extra], 20_000);
}

/** Runs any server script with `node [nodeArgs] --import tsx <script> --http [args]`; resolves on "listening on <url>". */
export async function startHttpProcess(
  script: string,
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
  args: string[] = [],
  startTimeoutMs = 30_000,
): Promise<RunningHttpServer> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script, "--http", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), startTimeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    process: child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
};
export type Route = (request: RecordedRequest) => { status?: number; json?: unknown; text?: string; type?: string };

/** A real REST API on 127.0.0.1 that answers by route and records every request it gets. */
export async function startUpstream(
  routes: Record<string, Route>,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://upstream");
    const recorded = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    requests.push(recorded);
    const route = Object.entries(routes).find(([pattern]) => matches(pattern, `${recorded.method} ${recorded.path}`));
    const answer = route ? route[1](recorded) : { status: 404, json: { error: "no such route" } };
    const body = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? "");
    res.writeHead(answer.status ?? 200, {
      "content-type": answer.type ?? (answer.json !== undefined ? "application/json" : "text/plain"),
    });
    res.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** "GET /cities/*" matches "GET /cities/Paris": one `*` per path segment. */
function matches(pattern: string, actual: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );
  return regex.test(actual);
}

/** Runs the repository's tsc on a package's own tsconfig; resolves to its output when it fails. */
export function typecheck(dir: string): Promise<string> {
  return runTsc(join(dir, "tsconfig.json"));
}

/**
 * Type-checks several generated packages in ONE tsc run with their own compiler options (read from the
 * first one's tsconfig.json; every package's are the same): the libraries and @types/node are parsed
 * once, not once a package (a third of the time for the five goldens). Each file is a module: no clashes.
 */
export function typecheckTogether(dirs: string[]): Promise<string> {
  const own = JSON.parse(readFileSync(join(dirs[0], "tsconfig.json"), "utf8").replace(/^\/\/[^\n]*\n/, ""));
  const at = scratchDir("typecheck-together");
  const config = join(at, "tsconfig.json");
  // Output options (rootDir, outDir, declarations) name one package's layout: none applies to a check of all.
  const { rootDir: _r, outDir: _o, declaration: _d, ...checking } = own.compilerOptions;
  const compilerOptions = { ...checking, noEmit: true, typeRoots: [join(ROOT, "node_modules/@types")] };
  const include = dirs.flatMap((dir) => [join(dir, "src"), join(dir, "runtime")]);
  writeFileSync(config, JSON.stringify({ compilerOptions, include }));
  return runTsc(config);
}

function runTsc(config: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      join(ROOT, "node_modules/typescript/bin/tsc"),
      "--noEmit",
      "--strict",
      "-p",
      config,
    ]);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve(code === 0 ? "" : output || `tsc exited ${code}`));
  });
}
