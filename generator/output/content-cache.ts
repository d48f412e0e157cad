/**
 * Work kept across runs by the hash of what it was made from (issue 32): a validator chunk's ajv code,
 * the types json-schema-to-typescript wrote, a large generated file's JavaScript. A regenerate after a
 * spec change re-does only what the change touched (a changed tool's validator chunk, not the other
 * twelve), and a first generate into a new folder reuses what an earlier run on this machine made.
 *
 * An entry is named by SHA-256 over mcpgen's own sources (another mcpgen, another name: mcpgen-sources.ts), its kind and its input, so it can only ever be served for exactly that input. It lives
 * in the cache folder (cache-folder.ts), under its trust rules: what it holds goes into
 * the package and runs there, so a folder or file another user owns or can write is neither read nor
 * written. `MCPGEN_CACHE=off` turns it off. A cache that cannot be read or written only costs time.
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONTENT_FOLDER, cacheDirectory, cacheDirectoryProblem, markStored, readTrusted } from "./cache-folder.ts";
import { mcpgenSources } from "./mcpgen-sources.ts";

export type CacheKind = "validators" | "types" | "dist" | "tokens" | "search" | "prose";

export type ContentCache = {
  /** What an earlier run stored for this input, or undefined. */
  get(input: string): string | undefined;
  /** Stores `value` as what `input` makes. */
  set(input: string, value: string): void;
};

/** The cache of one kind of work, or undefined when caching is off or the folder is not ours alone. */
export function contentCache(kind: CacheKind, env: NodeJS.ProcessEnv = process.env): ContentCache | undefined {
  const root = cacheDirectory(env);
  if (root === undefined) return undefined;
  const dir = join(root, CONTENT_FOLDER, kind);
  const trusted = () =>
    [root, join(root, CONTENT_FOLDER), dir].every((folder) => cacheDirectoryProblem(folder) === undefined);
  if (!trusted()) return undefined;
  const fileOf = (input: string) =>
    join(dir, createHash("sha256").update(mcpgenSources()).update(`\0${kind}\0`).update(input).digest("hex"));
  return {
    get(input) {
      const file = fileOf(input);
      try {
        return readTrusted(file);
      } catch {
        return undefined;
      }
    },
    set(input, value) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (!trusted()) return;
        const file = fileOf(input);
        // Under a temporary name, then renamed: a concurrent generate never reads half an entry.
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, value, { mode: 0o600 });
        renameSync(temporary, file);
        markStored(root);
      } catch {
        // Read-only home, full disk: the next run does the work again.
      }
    },
  };
}

/**
 * What a cache entry is made from: its text, or its text in parts (a large API's inputs are hundreds of MB
 * of JSON; in parts, they are hashed one part at a time instead of joined into one string first).
 */
export type CacheInput = string | Iterable<string>;

/** What `input` makes: an earlier run's, else `make`'s now, stored for the next run. `input` is asked only with a cache. */
export function remembered(kind: CacheKind, input: () => CacheInput, make: () => string): string {
  const { stored, store } = lookup(kind, input);
  return stored ?? store(make());
}

/** remembered for work that is asynchronous. */
export async function rememberedAsync(
  kind: CacheKind,
  input: () => CacheInput,
  make: () => Promise<string>,
): Promise<string> {
  const { stored, store } = lookup(kind, input);
  return stored ?? store(await make());
}

function lookup(kind: CacheKind, input: () => CacheInput): { stored?: string; store(value: string): string } {
  const cache = contentCache(kind);
  if (cache === undefined) return { store: (value) => value };
  const whole = input();
  // Parts are named by their digest: the entry's name is then a hash of that hash, as exact a name.
  const key = typeof whole === "string" ? whole : digestOfParts(whole);
  return {
    stored: cache.get(key),
    store(value) {
      cache.set(key, value);
      return value;
    },
  };
}

/** SHA-256 of the concatenated parts, fed one part at a time. */
function digestOfParts(parts: Iterable<string>): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return `parts:${hash.digest("hex")}`;
}

/**
 * `JSON.stringify(value)` of plain JSON data in parts: objects and arrays down to `depth` levels are
 * written key by key, what is below them whole. The same text once joined, never held whole.
 */
export function* jsonParts(value: unknown, depth = 2): Generator<string> {
  if (depth <= 0 || typeof value !== "object" || value === null) {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  const array = Array.isArray(value);
  yield array ? "[" : "{";
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    // As JSON.stringify: in an object, what has no JSON form is left out; in an array, it is null.
    const skipped = item === undefined || typeof item === "function" || typeof item === "symbol";
    if (skipped && !array) continue;
    yield `${first ? "" : ","}${array ? "" : `${JSON.stringify(key)}:`}`;
    first = false;
    if (skipped) yield "null";
    else yield* jsonParts(item, depth - 1);
  }
  yield array ? "]" : "}";
}
