/**
 * Starts an MCP server over stdio, initializes, pages through tools/list and stops it: the "serves"
 * check of the corpus run, the same for mcpgen's packages and the peer's. Lines on stdout that are not
 * JSON (a server that logs there) are skipped, not fatal.
 */
import { spawn } from "node:child_process";

export type Served = { ok: true; tools: number; emptySchemas: number } | { ok: false; reason: string };

export async function listTools(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Served> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let buffered = "";
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  child.stdin.on("error", () => {});
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(`server exited (${code ?? signal}): ${lastLine(stderr)}`));
    child.once("error", (error) => resolve(`cannot start: ${error.message}`));
  });
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answer;
  };
  const work = async (): Promise<Served> => {
    const init = await call("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "mcpgen-corpus", version: "1.0.0" },
    });
    if (init.error) return { ok: false, reason: `initialize: ${JSON.stringify(init.error).slice(0, 200)}` };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    let tools = 0;
    let emptySchemas = 0;
    let cursor: string | undefined;
    do {
      const page = await call("tools/list", cursor ? { cursor } : {});
      const result = page.result as { tools?: Array<{ inputSchema?: { properties?: object } }>; nextCursor?: string };
      if (!result || !Array.isArray(result.tools))
        return { ok: false, reason: `tools/list: ${JSON.stringify(page.error ?? page).slice(0, 200)}` };
      tools += result.tools.length;
      emptySchemas += result.tools.filter((t) => Object.keys(t.inputSchema?.properties ?? {}).length === 0).length;
      cursor = result.nextCursor;
    } while (cursor);
    return { ok: true, tools, emptySchemas };
  };
  const timeout = new Promise<Served>((resolve) => {
    setTimeout(
      () => resolve({ ok: false, reason: `no answer within ${options.timeoutMs ?? 60_000} ms` }),
      options.timeoutMs ?? 60_000,
    ).unref();
  });
  const outcome = await Promise.race([work(), exited.then((reason): Served => ({ ok: false, reason })), timeout]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exited;
  }
  return outcome;
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.slice(0, 200) ?? "";
}
