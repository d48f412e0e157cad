/**
 * The runtime's JavaScript, kept across runs. runtime/ is the same bytes in every package this mcpgen
 * generates, and transpiling its ~90 files is most of what writing dist/ costs (about 1.5 s of a
 * cold process, where the package's own src/ takes 0.5 s). So the first generate on a machine stores
 * what the transpiler wrote for them, and later ones read it back: one JSON file per TypeScript
 * version, compiler options and runtime (a hash of every runtime file's path and bytes names it), so a
 * changed runtime or compiler can never be served stale output.
 *
 * What the cache holds goes into dist/ and runs when the server starts, so it is trusted only as far as
 * its folder is: one owned by another user, or writable by group or others (a shared `/tmp` folder named
 * in `MCPGEN_CACHE_DIR`), is neither read nor written (cacheDirectoryProblem; generate warns
 * CACHE_DIR_UNSAFE), nor is a cache file so owned or writable. Each entry also carries the hash of the
 * TypeScript it was made from, and is used only for that exact source.
 *
 * Where: cache-folder.ts's cacheDirectory. A cache that cannot be read or written is skipped without a
 * word: it only saves time. Bounded with the rest of the folder (cache-folder.ts's pruneCache).
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../hash.ts";
import { cacheDirectoryProblem, markStored, readTrusted } from "./cache-folder.ts";

export type RuntimeJs = Map<string, string>;

/** The file's format; another version is not read. */
const FORMAT = 2;

type Entry = { source: string; js: string };

/** The cache file for this compiler, these options and this runtime (`files`: path → TypeScript). */
export function runtimeJsFile(dir: string, compiler: string, files: ReadonlyMap<string, string>): string {
  const hash = createHash("sha256").update(compiler);
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`\0${path}\0${content}`);
  }
  return join(dir, `runtime-js-${hash.digest("hex").slice(0, 32)}.json`);
}

/**
 * The stored JavaScript for `sources` (path → TypeScript), or undefined: every source must have an entry
 * made from exactly its bytes, and the folder and the file must be trusted.
 */
export function readRuntimeJs(file: string, dir: string, sources: ReadonlyMap<string, string>): RuntimeJs | undefined {
  if (cacheDirectoryProblem(dir) !== undefined) return undefined;
  try {
    const parsed = JSON.parse(readTrusted(file)) as { format?: unknown; files?: Record<string, Partial<Entry>> };
    if (parsed.format !== FORMAT || typeof parsed.files !== "object" || parsed.files === null) return undefined;
    const js: RuntimeJs = new Map();
    for (const [path, source] of sources) {
      const entry = Object.hasOwn(parsed.files, path) ? parsed.files[path] : undefined;
      if (typeof entry?.js !== "string" || entry.source !== sha256(source)) return undefined;
      js.set(path, entry.js);
    }
    return js;
  } catch {
    return undefined;
  }
}

/** Written under a temporary name and renamed, so a concurrent generate never reads half a file. */
export function writeRuntimeJs(file: string, dir: string, sources: ReadonlyMap<string, string>, js: RuntimeJs): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (cacheDirectoryProblem(dir) !== undefined) return;
    const files = Object.fromEntries(
      [...js].map(([path, text]) => [path, { source: sha256(sources.get(path) ?? ""), js: text }]),
    );
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ format: FORMAT, files }), { mode: 0o600 });
    renameSync(temporary, file);
    markStored(dir);
  } catch {
    // Read-only home, full disk: the next run transpiles again.
  }
}
