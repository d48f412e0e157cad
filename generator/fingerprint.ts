/**
 * A package remembers what it was generated from, in `.mcpgen/fingerprint.json`: one key (a hash of
 * the spec's bytes, the config file's, the options, the spec's path from the package, and mcpgen's own
 * sources) and the hash of every file mcpgen owns there. When the key and every file still match,
 * nothing can have changed, so `generate` and `--check` answer without running the pipeline (Stripe:
 * 9 s to well under 1 s). Anything that could change the output (an edit to the spec or a generated
 * file, a new or deleted handler, another mcpgen) fails the match and takes the full path.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Diagnostic } from "./diagnostics.ts";
import { sha256 } from "./hash.ts";
import type { LoadOptions } from "./load.ts";
import { DEFAULT_MAX_BYTES } from "./read-source.ts";
import { readRegularFile } from "./safe-read.ts";
import { listFiles, OWNED_FOLDERS, writeAtomically } from "./write.ts";

export const FINGERPRINT_FILE = ".mcpgen/fingerprint.json";

export type Fingerprint = {
  key: string;
  /** sha256 of every file mcpgen owns in the package, by path. */
  files: Record<string, string>;
  /** Every file below the folders whose listing changes the outcome (handlers, runtime, validators). */
  listed: string[];
  /** What the run reported, replayed as is (handler type errors excepted: an unchanged package skips that check). */
  diagnostics: Diagnostic[];
  obsolete: string[];
};

/** Every file below the folders whose listing is part of the outcome: new or missing handlers, and
 * stray files where only mcpgen writes (runtime, validator chunks). */
export function listedFiles(outDir: string): string[] {
  return ["src/handlers", ...OWNED_FOLDERS].flatMap((folder) => listFiles(outDir, folder));
}

/**
 * The key for a run, or undefined when the spec cannot be read. A spec whose `$ref`s reach other files
 * or URLs is never fingerprinted (generate writes no fingerprint for it), so the spec's bytes, the
 * config file and the options are all there is to hash.
 */
export function fingerprintKey(specPath: string, specRef: string, options: LoadOptions): string | undefined {
  const hash = createHash("sha256");
  // Bounded reads of regular files only: a FIFO or /dev/zero named here must not hang or flood this step.
  const limit = options.maxBytes ?? DEFAULT_MAX_BYTES;
  for (const path of [specPath, options.openapi?.config]) {
    if (path === undefined) continue;
    const read = readRegularFile(path, limit);
    if (!read.ok) return undefined;
    hash.update(read.bytes);
  }
  const { maxBytes, openapi } = options;
  hash.update(JSON.stringify({ specRef, maxBytes, openapi: { ...openapi, config: undefined } }));
  hash.update(mcpgenSources());
  return hash.digest("hex");
}

export function readFingerprint(outDir: string): Fingerprint | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, FINGERPRINT_FILE), "utf8")) as Fingerprint;
  } catch {
    return undefined;
  }
}

/** True when the package on disk is exactly what the fingerprint recorded. */
export function isIntact(outDir: string, fingerprint: Fingerprint): boolean {
  if (listedFiles(outDir).join("\n") !== fingerprint.listed.join("\n")) return false;
  return Object.entries(fingerprint.files).every(([path, digest]) => {
    try {
      return sha256(readFileSync(join(outDir, path))) === digest;
    } catch {
      return false;
    }
  });
}

export function writeFingerprint(outDir: string, fingerprint: Fingerprint): void {
  const target = join(outDir, FINGERPRINT_FILE);
  writeAtomically(target, `${JSON.stringify(fingerprint)}\n`);
  // Machine state, not source: the folder ignores itself, so it never lands in a commit.
  writeFileSync(join(dirname(target), ".gitignore"), "*\n");
}

/** Removes a fingerprint that no longer describes the package (this run could not be fingerprinted). */
export function forgetFingerprint(outDir: string): void {
  rmSync(join(outDir, FINGERPRINT_FILE), { force: true });
}

let sourcesDigest: string | undefined;

/** One hash over mcpgen's generator, runtime, templates and pinned dependencies: another mcpgen, another key. */
function mcpgenSources(): string {
  if (sourcesDigest) return sourcesDigest;
  const root = new URL("../", import.meta.url).pathname;
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(join(root, path)));
    }
  };
  for (const dir of ["generator", "runtime", "templates"]) if (existsSync(join(root, dir))) walk(dir);
  for (const file of ["package.json", "package-lock.json"]) {
    if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  }
  sourcesDigest = hash.digest("hex");
  return sourcesDigest;
}
