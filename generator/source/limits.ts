/**
 * What a file a user hands us may cost before it is refused: its size, its key/value pairs, its nesting
 * and its YAML aliases. Each limit is far above any real spec and far below what exhausts memory or stack.
 */
import type { Report } from "../diagnostics/diagnostic.ts";
import { childPointer } from "./json-pointer.ts";
import { readRegularFile } from "./safe-read.ts";

export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** How many alias expansions a document may cause: real specs use a handful, a billion-laughs bomb millions. */
export const MAX_ALIAS_COUNT = 1000;

/** Mapping entries in the densest real specs we know (GitHub's REST API: ~240,000), with room to spare. */
export const MAX_ENTRIES = 1_000_000;

/** An upper bound on the key/value pairs of a YAML or JSON text: every pair has a ':' (strings may add more). */
export function countEntries(text: string): number {
  let count = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) count++;
  return count;
}

/** Every later stage (ajv's meta-schema check first) recurses per level; real specs nest a few dozen deep. */
export const MAX_DEPTH = 256;

/** The pointer of the first value nested deeper than MAX_DEPTH, found without recursion. */
export function tooDeep(root: unknown): string | undefined {
  type Entry = { node: object; depth: number; parent?: Entry; key: string };
  const stack: Entry[] = typeof root === "object" && root !== null ? [{ node: root, depth: 0, key: "" }] : [];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.depth > MAX_DEPTH) {
      const keys: string[] = [];
      for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.unshift(e.key);
      return keys.reduce(childPointer, "");
    }
    for (const key in entry.node) {
      const child = (entry.node as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object")
        stack.push({ node: child, depth: entry.depth + 1, parent: entry, key });
    }
  }
  return undefined;
}

/** The bytes of a file, or undefined after a diagnostic saying why it cannot be read (missing, a FIFO, too large…). */
export function readBytes(file: string, maxBytes: number, report: Report): Buffer | undefined {
  const read = readRegularFile(file, maxBytes);
  if (read.ok) return read.bytes;
  if (read.reason === "missing") report("FILE_NOT_FOUND", "", `no such file: '${file}'`);
  else if (read.reason === "directory") report("FILE_IS_DIRECTORY", "", `'${file}' is a directory, not a spec file`);
  else if (read.reason === "not-regular")
    report("FILE_NOT_REGULAR", "", `'${file}' is ${read.detail}, not a spec file`);
  else if (read.reason === "too-large") {
    const size = read.size === undefined ? "larger than that" : `${mebibytes(read.size)} MiB`;
    report("FILE_TOO_LARGE", "", `'${file}' is ${size}; the limit is ${mebibytes(maxBytes)} MiB`);
  } else report("FILE_UNREADABLE", "", `cannot read '${file}' (${read.detail})`);
  return undefined;
}

function mebibytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
