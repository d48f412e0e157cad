/** Raw wire access for the hostile-client tests: a stdio server as a child process, bytes in, messages out. */
import { spawn } from "node:child_process";
import { type Agent, request } from "node:http";
import { fileURLToPath } from "node:url";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "hostile", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

export const FIXTURE_SERVER = fileURLToPath(new URL("../runtime/fixtures/stdio-server.ts", import.meta.url));

export type WireMessage = {
  id?: unknown;
  result?: { content?: Array<{ text: string }>; [key: string]: unknown };
  error?: { code: number; message: string };
  method?: string;
  params?: Record<string, unknown>;
};

/** A modern tools/call request line for the demo server. */
export function callLine(
  id: unknown,
  name = "echo",
  args: Record<string, unknown> = { text: `t${String(id)}` },
): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } })}\n`;
}

export function startStdio(script = FIXTURE_SERVER, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const messages: WireMessage[] = [];
  let partial = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    partial += chunk;
    let newline = partial.indexOf("\n");
    while (newline >= 0) {
      const line = partial.slice(0, newline);
      partial = partial.slice(newline + 1);
      if (line !== "") messages.push(JSON.parse(line)); // stdout must only ever hold JSON-RPC lines
      newline = partial.indexOf("\n");
    }
    for (const wake of waiters) wake();
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {}); // a dead server shows up as a failed wait, with its stderr
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    messages,
    exited,
    stderr: () => stderr,
    write(data: string | Buffer): Promise<void> {
      return new Promise((resolve) => {
        if (!child.stdin.write(data)) child.stdin.once("drain", resolve);
        else resolve();
      });
    },
    /** Resolves with the messages once `done(messages)` holds; rejects after `ms`. */
    waitFor(done: (all: WireMessage[]) => boolean, ms = 15_000): Promise<WireMessage[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(messages)) return false;
          cleanup();
          resolve(messages);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out; exit ${child.exitCode}; got ${messages.length} messages; stderr: ${stderr.slice(0, 2000)}`,
            ),
          );
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        const wake = () => void check();
        if (!check()) waiters.add(wake);
      });
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

// Starting an HTTP server process is shared with the generator tests.
export { startHttpProcess } from "../generate/support.ts";

export const HOSTILE_SERVER = fileURLToPath(new URL("./fixtures/hostile-handlers.ts", import.meta.url));

/** A modern JSON-RPC request body, with the headers 2026-07-28 wants for it. */
export function modernPost(
  id: unknown,
  name: string,
  args: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
) {
  return {
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args, _meta: { ...MODERN_META, ...meta } },
    }),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
  };
}

/** One POST with exactly the given bytes and headers (nothing added), answered as status and text. */
export function rawPost(
  url: string,
  body: string | Buffer,
  headers: Record<string, string | string[]>,
  agent?: Agent,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers, ...(agent ? { agent } : {}) }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
