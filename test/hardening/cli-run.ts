/** `node bin/mcpgen.js ...` as a real child process with a heap cap and a deadline, and the checks every such run gets. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "../generate/support.ts";

export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number };

export type CliOptions = { heapMb?: number; limitMs?: number; env?: NodeJS.ProcessEnv };

export function runMcpgen(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const { heapMb = 1024, limitMs = 90_000, env = {} } = options;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, join(ROOT, "bin/mcpgen.js"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Neither killed (OOM, timeout) nor crashed: a chosen exit code and no stack trace anywhere. */
export function expectControlled(run: CliRun): void {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.signal, output.slice(0, 2000)).toBeNull();
  expect([0, 1, 2], output.slice(0, 2000)).toContain(run.code);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(output).not.toMatch(/heap out of memory|Maximum call stack/i);
}
