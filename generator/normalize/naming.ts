/** Identifiers and file names derived from spec names: deterministic, collision-free, always valid. */
import { sha256 } from "../hash.ts";

/** "notes.create" → "NotesCreate", "get-forecast_v2" → "GetForecastV2", "1abc" → "T1Abc"; never empty, never starts with a digit. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  // A letter after a digit is upper-cased too: json-schema-to-typescript does that to every title, and
  // the type it emits must carry exactly the name the other generated files refer to ("v1beta" → "V1Beta").
  const joined = words
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("")
    .replace(/([0-9])([a-z])/g, (_, digit: string, letter: string) => digit + letter.toUpperCase());
  if (joined === "") return "Unnamed";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0].toLowerCase() + pascal.slice(1);
}

/** Six hex digits of a SHA-256: enough to tell names apart, short enough to read. */
export function shortHash(text: string): string {
  return sha256(text).slice(0, 6);
}

/** Hands out names, adding 2, 3... to repeats, so the first holder of a name keeps it. */
export class NameAllocator {
  readonly #taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.#taken.add(name);
  }

  take(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.#taken.has(name); n++) name = `${wanted}${n}`;
    this.#taken.add(name);
    return name;
  }
}

/**
 * A handler's file name. Tool and prompt names are already safe ([A-Za-z0-9_.-]) and are used as they are,
 * so a handler never moves when other entries change. Free-text names (resources) are made safe and get a
 * hash of their identity (the URI) when that changed them or when two would share a file.
 */
export function handlerFileName(name: string, identity: string, clashes: boolean): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[.-]+|[.-]+$/g, "") || "handler";
  if (safe === name && !clashes && name.length <= MAX_FILE_STEM) return name;
  // File systems cap names near 255 bytes; keep well inside that, the hash keeps it unique.
  return `${safe.slice(0, MAX_FILE_STEM).replace(/[.-]+$/, "")}-${shortHash(identity)}`;
}

const MAX_FILE_STEM = 64;
