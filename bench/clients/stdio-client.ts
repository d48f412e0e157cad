// Raw JSON-RPC over a child's stdin/stdout, newline-delimited (the MCP stdio framing).
import { spawn } from "node:child_process";
import type { JsonRpcAnswer, JsonValue } from "./json.ts";
import { type RawConnection, RpcError } from "./raw-connection.ts";

type Pending = { resolve: (value: JsonValue) => void; reject: (error: Error) => void };

export type StdioTarget = { command: string; args: string[]; cwd?: string; env?: NodeJS.ProcessEnv };

export function spawnStdio(target: StdioTarget): RawConnection {
  const child = spawn(target.command, target.args, {
    cwd: target.cwd,
    env: target.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pending = new Map<number | string, Pending>();
  let nextId = 1;
  let buffered = "";
  let stderr = "";
  let exited = false;
  const failAll = (error: Error) => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    let start = 0;
    let newline = buffered.indexOf("\n", start);
    while (newline >= 0) {
      const line = buffered.slice(start, newline);
      start = newline + 1;
      if (line.length > 0) dispatch(JSON.parse(line) as JsonRpcAnswer);
      newline = buffered.indexOf("\n", start);
    }
    buffered = buffered.slice(start);
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.on("exit", (code, signal) => {
    exited = true;
    failAll(new Error(`server exited (code ${code}, signal ${signal}): ${stderr.slice(-2000)}`));
  });
  child.stdin.on("error", () => {}); // EPIPE after the server died is reported through "exit"

  const dispatch = (message: JsonRpcAnswer) => {
    if (message.id === undefined || message.method !== undefined) return; // notifications, server requests
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.error !== undefined) entry.reject(new RpcError(message.error));
    else entry.resolve(message.result ?? null);
  };

  return {
    pid: child.pid,
    call(method, params) {
      const id = nextId++;
      return new Promise<JsonValue>((resolve, reject) => {
        if (exited) return reject(new Error(`server exited: ${stderr.slice(-2000)}`));
        pending.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
    async notify(method, params) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
    },
    stderr: () => stderr,
    close(graceMs = 0) {
      if (exited) return Promise.resolve();
      return new Promise<void>((resolve) => {
        // EOF first (servers exit on it, writing their --cpu-prof output), then SIGTERM, then SIGKILL.
        const term = setTimeout(() => child.kill("SIGTERM"), graceMs);
        const kill = setTimeout(() => child.kill("SIGKILL"), graceMs + 2000);
        child.once("exit", () => {
          clearTimeout(term);
          clearTimeout(kill);
          resolve();
        });
        child.stdin.end();
      });
    },
  };
}
