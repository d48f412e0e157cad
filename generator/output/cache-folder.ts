/**
 * The folder mcpgen keeps work in across runs: the runtime's JavaScript (runtime-js-cache.ts) and work
 * named by its input (content-cache.ts). What it holds goes into packages and runs there, so it is trusted
 * only as far as its folder is: one owned by another user, or writable by group or others (a shared `/tmp`
 * folder named in `MCPGEN_CACHE_DIR`), is neither read nor written (generate warns CACHE_DIR_UNSAFE), nor
 * is a file so owned or writable.
 *
 * Where: `MCPGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/mcpgen`, else `~/.cache/mcpgen`; `MCPGEN_CACHE=off`
 * turns it off. Bounded: after a run that stored something, the least recently used entries go until the
 * folder holds at most MAX_CACHE_BYTES (pruneCache).
 */
import {
  closeSync,
  fstatSync,
  futimesSync,
  openSync,
  readdirSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MCPGEN_CACHE === "off") return undefined;
  if (env.MCPGEN_CACHE_DIR) return env.MCPGEN_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "mcpgen");
}

/** Why a cache folder cannot be trusted, or undefined when it is ours alone (or not there yet: we make it 0700). */
export function cacheDirectoryProblem(dir: string): string | undefined {
  let stat: Stats | undefined;
  try {
    stat = statSync(dir, { throwIfNoEntry: false });
  } catch {
    return undefined; // Unreadable: nothing is read from it either.
  }
  if (stat === undefined) return undefined;
  if (!stat.isDirectory()) return "is not a directory";
  return ownershipProblem(stat);
}

export function ownershipProblem(stat: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `is owned by another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return "is writable by other users";
  return undefined;
}

/**
 * The file's text, if it is ours alone (checked on the open file, so it cannot be swapped in between).
 * Its time is set to now: pruneCache drops the least recently used entries first.
 */
export function readTrusted(file: string): string {
  const fd = openSync(file, "r");
  try {
    if (ownershipProblem(fstatSync(fd)) !== undefined) throw new Error("untrusted cache file");
    const text = readFileSync(fd, "utf8");
    const now = new Date();
    futimesSync(fd, now, now);
    return text;
  } finally {
    closeSync(fd);
  }
}

/** 512 MiB: a few GitHub-sized packages' validators, types and JavaScript, and many runtimes. */
export const MAX_CACHE_BYTES = 512 * 1024 * 1024;

/** The entries mcpgen names (never another file someone put in the folder): runtimes, and content by hash. */
const RUNTIME_ENTRY = /^runtime-js-[0-9a-f]{32}\.json$/;
const CONTENT_ENTRY = /^[0-9a-f]{64}$/;
export const CONTENT_FOLDER = "content";

/** Cache folders this process stored into: only those need pruning. */
const stored = new Set<string>();

export function markStored(dir: string): void {
  stored.add(dir);
}

/** Drops the least recently used entries (a hit touches its file) until each folder stored into holds at most `maxBytes`. */
export function pruneCache(maxBytes = MAX_CACHE_BYTES): void {
  for (const dir of stored) {
    const files = list(dir)
      .filter((name) => RUNTIME_ENTRY.test(name))
      .map((name) => join(dir, name));
    for (const kind of list(join(dir, CONTENT_FOLDER))) {
      const folder = join(dir, CONTENT_FOLDER, kind);
      files.push(...list(folder).flatMap((name) => (CONTENT_ENTRY.test(name) ? [join(folder, name)] : [])));
    }
    const entries = files.flatMap((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat?.isFile() ? [{ file, size: stat.size, used: stat.mtimeMs }] : [];
    });
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    for (const entry of entries.sort((a, b) => a.used - b.used)) {
      if (total <= maxBytes) break;
      try {
        unlinkSync(entry.file);
        total -= entry.size;
      } catch {
        // Another run removed it first.
      }
    }
  }
  stored.clear();
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
