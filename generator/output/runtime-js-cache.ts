/**
 * The runtime's JavaScript, kept across runs. runtime/ is the same bytes in every package this mcpgen
 * generates, and transpiling its ~90 files is most of what writing dist/ costs (about 1.5 s of a
 * cold process, where the package's own src/ takes 0.5 s). So the first generate on a machine stores
 * what the transpiler wrote for them, and later ones read it back: one JSON file per TypeScript
 * version, compiler options and runtime (a hash of every runtime file's path and bytes names it), so a
 * changed runtime or compiler can never be served stale output.
 *
 * Where: `MCPGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/mcpgen`, else `~/.cache/mcpgen`; `MCPGEN_CACHE=off`
 * turns it off. A cache that cannot be read or written is skipped without a word: it only saves time.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export type RuntimeJs = Map<string, string>;

export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MCPGEN_CACHE === "off") return undefined;
  if (env.MCPGEN_CACHE_DIR) return env.MCPGEN_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "mcpgen");
}

/** The cache file for this compiler, these options and this runtime (`files`: path → TypeScript). */
export function runtimeJsFile(dir: string, compiler: string, files: ReadonlyMap<string, string>): string {
  const hash = createHash("sha256").update(compiler);
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`\0${path}\0${content}`);
  }
  return join(dir, `runtime-js-${hash.digest("hex").slice(0, 32)}.json`);
}

export function readRuntimeJs(file: string): RuntimeJs | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed);
    return entries.every(([, js]) => typeof js === "string") ? new Map(entries as [string, string][]) : undefined;
  } catch {
    return undefined;
  }
}

/** Written under a temporary name and renamed, so a concurrent generate never reads half a file. */
export function writeRuntimeJs(file: string, dir: string, js: RuntimeJs): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(js)), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // Read-only home, full disk: the next run transpiles again.
  }
}
