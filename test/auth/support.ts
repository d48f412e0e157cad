// Shared pieces of the auth tests (issue 17): a generated package with scoped tools, run as
// `node dist/server.js --http` (a real process), and a small MCP-over-HTTP caller that shows statuses and headers.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

// The features the auth tests serve: OAuth, the two modes whose searches and calls it filters, and the
// token exchange the generated client's end-to-end test reaches the upstream with.
export const SPEC = `
features: [oauth, token-exchange, dynamic, code]
server: { name: things, version: 1.0.0 }
upstream:
  baseUrl: https://api.things.example
  auth: { type: bearer, env: THINGS_TOKEN }
tools:
  - name: list_things
    description: List the things.
    inputSchema: { type: object, properties: {} }
    annotations: { readOnlyHint: true }
    scopes: [things:read]
    http: { method: GET, path: /things }
  - name: add_thing
    description: Add a thing.
    inputSchema: { type: object, properties: { name: { type: string } }, required: [name] }
    scopes: [things:read, things:write]
    http: { method: POST, path: /things }
  - name: server_time
    description: The upstream's clock; no scope needed.
    inputSchema: { type: object, properties: {} }
    http: { method: GET, path: /time }
`;

/** Generates the test package once per test file (with `features`, as generate's --features); returns its directory. */
export async function thingsPackage(features?: string[]): Promise<string> {
  const dir = scratchDir("auth");
  const spec = join(dir, "things.yaml");
  writeFileSync(spec, SPEC);
  const pkg = join(dir, "pkg");
  const result = await generate(spec, pkg, features ? { features } : {});
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  return pkg;
}

export type ServerProcess = { url: string; stderr(): string; exitCode(): number | null; stop(): Promise<void> };

/** `node dist/server.js --http --port 0 ...args` (no tsx); resolves on its "listening on" line. */
export async function startServer(pkg: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [join(pkg, "dist/server.js"), "--http", "--port", "0", ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 20_000);
    child.stderr.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}: ${stderr}`), { code, stderr }));
    });
  });
  return {
    url,
    stderr: () => stderr,
    exitCode: () => child.exitCode,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Runs the server expecting it to refuse to start; resolves to its exit code and stderr. */
export async function startFailure(
  pkg: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stderr: string }> {
  try {
    const server = await startServer(pkg, args, env);
    await server.stop();
    throw new Error("the server started");
  } catch (error) {
    const { code, stderr } = error as { code?: number; stderr?: string };
    if (code === undefined) throw error;
    return { code, stderr: stderr ?? "" };
  }
}

export type Answer = { status: number; headers: Headers; body: Record<string, unknown> | undefined };

const VERSION = "2025-11-25";

/** One JSON-RPC request over POST (2025-era, JSON answers). */
export async function post(
  url: string,
  message: Record<string, unknown>,
  options: { token?: string; session?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.session ? { "mcp-session-id": options.session } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  const text = await response.text();
  const data = text.startsWith("event:") || text.includes("\ndata:") ? /data: (.*)/.exec(text)?.[1] : text;
  return { status: response.status, headers: response.headers, body: data ? JSON.parse(data) : undefined };
}

/** initialize + notifications/initialized; resolves to the session id. */
export async function openSession(url: string, token: string): Promise<string> {
  const init = await post(
    url,
    {
      id: 1,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    { token },
  );
  if (init.status !== 200) throw new Error(`initialize: ${init.status} ${JSON.stringify(init.body)}`);
  const session = init.headers.get("mcp-session-id") as string;
  await post(url, { method: "notifications/initialized" }, { token, session });
  return session;
}

export async function listToolNames(url: string, token: string, session: string): Promise<string[]> {
  const answer = await post(url, { id: 2, method: "tools/list" }, { token, session });
  const result = answer.body?.result as { tools: { name: string }[] } | undefined;
  if (!result) throw new Error(`tools/list: ${answer.status} ${JSON.stringify(answer.body)}`);
  return result.tools.map((tool) => tool.name).sort();
}

/** The JSON-RPC result of an answer (throws when there is none, so a test fails with the body shown). */
export function resultOf<T>(answer: Answer): T {
  if (!answer.body || !("result" in answer.body))
    throw new Error(`no result: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.result as T;
}
