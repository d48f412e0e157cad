/** Runs the real mcpgen command line as a child process, from any directory. */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");
export const BIN = join(ROOT, "bin/mcpgen.js");

export type Run = { code: number | null; stdout: string; stderr: string };

export function mcpgen(cwd: string, ...args: string[]): Run {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `mcpgen-${prefix}-`));
}

/** No stack trace and no Node internals leak to the user. */
export const NO_TRACE = /\n\s+at |TypeError|ReferenceError|ERR_PARSE_ARGS|node:internal/;
