/**
 * A package remembers what it was generated from, in `.mcpgen/fingerprint.json`: one key (a hash of
 * the spec's bytes, the config file's, the options, the spec's path from the package, and mcpgen's own
 * sources) and the hash of every file mcpgen owns there. When the key and every file still match,
 * nothing can have changed, so `generate` and `--check` answer without running the pipeline (Stripe:
 * 9 s to well under 1 s). Anything that could change the output (an edit to the spec or a generated
 * file, a new or deleted handler, another mcpgen) fails the match and takes the full path. The user's
 * own files under src/ (handlers, src/lib) are hashed too, so the handler type errors of the last run
 * can be replayed: any edit there takes the full path and its fresh type-check.
 */
import { createHash } from "node:crypto";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { sha256 } from "../hash.ts";
import type { LoadOptions } from "../load.ts";
import type { ToolsListCost } from "../render/token-cost.ts";
import { DEFAULT_MAX_BYTES } from "../source/read-source.ts";
import { readRegularFile } from "../source/safe-read.ts";
import { mcpgenSources } from "./mcpgen-sources.ts";
import type { OutputDir } from "./output-dir.ts";
import { OWNERSHIP_FILE } from "./ownership.ts";

export const FINGERPRINT_FILE = ".mcpgen/fingerprint.json";

export type Fingerprint = {
  key: string;
  /** sha256 of every file mcpgen owns in the package, by path. */
  files: Record<string, string>;
  /** Every file below the folders whose listing changes the outcome (handlers, runtime, validators). */
  listed: string[];
  /** sha256 of every other file under src/ (the user's handlers and helpers), by path. */
  user: Record<string, string>;
  /** What the run reported, handler type errors included, replayed as is. */
  diagnostics: Diagnostic[];
  obsolete: string[];
  /** tools/list's token cost as the run counted it, replayed as is. */
  toolsList?: ToolsListCost;
};

/** Every file below the folders whose listing is part of the outcome: new or missing handlers, and
 * the files beside the generated ones (runtime, validator chunks). */
export function listedFiles(dir: OutputDir): string[] {
  return ["src/handlers", "runtime", "src/validators"].flatMap((folder) => dir.list(folder));
}

/** Hashes of the files under src/ that mcpgen does not generate: the user's, which a handler check reads. */
export function userFiles(dir: OutputDir, generated: Record<string, string>): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const path of dir.list("src")) {
    if (generated[path] !== undefined) continue;
    const bytes = dir.readBytes(path);
    if (bytes) hashes[path] = sha256(bytes);
  }
  return hashes;
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
  const { maxBytes, openapi, features } = options;
  hash.update(JSON.stringify({ specRef, maxBytes, openapi: { ...openapi, config: undefined }, features }));
  hash.update(mcpgenSources());
  return hash.digest("hex");
}

export function readFingerprint(dir: OutputDir): Fingerprint | undefined {
  try {
    const value = JSON.parse(dir.read(FINGERPRINT_FILE) ?? "") as Fingerprint;
    // A fingerprint from before user files were hashed cannot vouch for the handlers: full path.
    return typeof value.user === "object" && value.user !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True when the package on disk is exactly what the fingerprint recorded, its ownership record included. */
export function isIntact(dir: OutputDir, fingerprint: Fingerprint): boolean {
  if (!dir.exists(OWNERSHIP_FILE)) return false;
  if (listedFiles(dir).join("\n") !== fingerprint.listed.join("\n")) return false;
  const same = ([path, digest]: [string, string]) => {
    const bytes = dir.readBytes(path);
    return bytes !== undefined && sha256(bytes) === digest;
  };
  const user = userFiles(dir, fingerprint.files);
  if (Object.keys(user).join("\n") !== Object.keys(fingerprint.user).join("\n")) return false;
  return Object.entries(fingerprint.user).every(same) && Object.entries(fingerprint.files).every(same);
}

export function writeFingerprint(dir: OutputDir, fingerprint: Fingerprint): void {
  // Machine state, not source: .mcpgen/.gitignore (written with the ownership record) ignores it.
  dir.write(FINGERPRINT_FILE, `${JSON.stringify(fingerprint)}\n`);
}

/** Removes a fingerprint that no longer describes the package (this run could not be fingerprinted). */
export function forgetFingerprint(dir: OutputDir): void {
  dir.remove(FINGERPRINT_FILE);
}
