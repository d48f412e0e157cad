/**
 * The runtime a package carries: only the runtime modules its code imports, followed through the
 * runtime's own relative imports (type-only and literal dynamic imports too: tsc and the loader need
 * them), each copied byte for byte to the same runtime-relative path. A module nothing reaches is not
 * written, so a package carries no code it cannot run.
 *
 * A small scanner rather than the TypeScript parser: loading TypeScript costs 0.3 s on every generate,
 * and the runtime is our own code.
 */
import { readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";

export type SourceFile = { path: string; content: string };

/** Reads a runtime file by runtime-relative path; undefined when there is none. */
export type RuntimeReader = (path: string) => string | undefined;

const RUNTIME_DIR = new URL("../../runtime/", import.meta.url);

/** Where the runtime sits in a generated package. */
export const RUNTIME_FOLDER = "runtime";

/** Copied whenever any runtime file is: it documents the runtime (a package carries part of it). */
const ALWAYS = ["README.md"];

/** A `from "./a.ts"`, of `import … from`, `import type …`, `export … from` or `export type * from`. */
const FROM = /\bfrom[ \t]*(["'])([^"'\n]+)\1/g;
/** What a line must start with, up to its `from`, to be such a statement: `import`, `export`, or the
 * end of a braced list spread over lines (`  b,\n} from "./a.ts"`). Comments (`//`, ` * `) never do. */
const STATEMENT = /^[ \t]*(?:import\b|export\b|[\w$,\s]*\})/;
/** `import "./a.ts"` (for its side effects), alone at the start of a line. */
const BARE = /^[ \t]*import[ \t]*(["'])([^"'\n]+)\1/gm;
/** `import("./a.ts")` with a literal specifier. */
const DYNAMIC = /(?<![\w$.])import[ \t]*\([ \t]*(["'])([^"'\n]+)\1[ \t]*[,)]/g;

/**
 * Every module specifier a source imports or re-exports from, in order of appearance, each once. Led by
 * the literal `from` and `import` (fast on the megabytes of a large API's types.ts: 0.1 s for 20 MB,
 * where tokenizing every string and comment took 1 s), and for code formatted as Biome formats it;
 * the test holds it to `ts.preProcessFile` on every runtime file.
 */
export function importSpecifiers(source: string): string[] {
  const found: Array<[number, string]> = [];
  for (const match of source.matchAll(FROM)) {
    const line = source.slice(source.lastIndexOf("\n", match.index) + 1, match.index);
    if (STATEMENT.test(line)) found.push([match.index, match[2]]);
  }
  for (const pattern of [BARE, DYNAMIC]) {
    for (const match of source.matchAll(pattern)) found.push([match.index, match[2]]);
  }
  found.sort((a, b) => a[0] - b[0]);
  return [...new Set(found.map(([, specifier]) => specifier))];
}

/** A relative specifier from `from` (a forward-slash path), as a normalized path; bare ones are undefined. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}

/**
 * The runtime-relative paths that package files import (`src/a.ts` importing `../runtime/<dir>/<file>.ts` gives
 * `<dir>/<file>.ts`), sorted. Specifiers that lead elsewhere, or to a file the runtime lacks, are not ours to follow.
 */
export function runtimeRoots(files: SourceFile[], read: RuntimeReader): string[] {
  const roots = new Set<string>();
  for (const file of files) {
    if (!/\.[cm]?tsx?$/.test(file.path)) continue;
    for (const specifier of importSpecifiers(file.content)) {
      const target = resolveRelative(file.path, specifier);
      if (!target?.startsWith(`${RUNTIME_FOLDER}/`)) continue;
      const inRuntime = target.slice(RUNTIME_FOLDER.length + 1);
      if (read(inRuntime) !== undefined) roots.add(inRuntime);
    }
  }
  return [...roots].sort();
}

/**
 * Every runtime file reachable from `roots` through relative imports, with its content, sorted by path.
 * A runtime import that leaves the runtime or names a missing file is a defect of mcpgen's runtime:
 * it throws (render reports it), rather than write a package that cannot compile.
 */
export function runtimeClosure(roots: string[], read: RuntimeReader): SourceFile[] {
  const reached = new Map<string, string>();
  const pending = [...roots];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (reached.has(path)) continue;
    const content = read(path);
    if (content === undefined) throw new Error(`the runtime has no file '${path}'`);
    reached.set(path, content);
    for (const specifier of importSpecifiers(content)) {
      const target = resolveRelative(path, specifier);
      if (target === undefined) continue;
      if (target.startsWith("../") || target === "..") {
        throw new Error(`runtime/${path} imports '${specifier}', outside the runtime`);
      }
      if (read(target) === undefined) throw new Error(`runtime/${path} imports '${specifier}', which does not exist`);
      if (!reached.has(target)) pending.push(target);
    }
  }
  return [...reached].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, content]) => ({ path, content }));
}

/** A reader of a runtime folder on disk (mcpgen's own by default). Only regular files inside it are read. */
export function runtimeReader(root: URL | string = RUNTIME_DIR): RuntimeReader {
  const base = (typeof root === "string" ? root : fileURLToPath(root)).replace(/\/?$/, "/");
  const cache = new Map<string, string | undefined>();
  return (path) => {
    if (cache.has(path)) return cache.get(path);
    let content: string | undefined;
    if (!path.startsWith("../") && !posix.isAbsolute(path)) {
      try {
        if (statSync(base + path).isFile()) content = readFileSync(base + path, "utf8");
      } catch {
        content = undefined;
      }
    }
    cache.set(path, content);
    return content;
  };
}

/**
 * The runtime files `files` (the package's sources: rendered, scaffolded and the user's own) need,
 * as package-relative `runtime/<path>` files, sorted; the runtime's README with them.
 */
export function runtimeFilesFor(files: SourceFile[], read: RuntimeReader = runtimeReader()): SourceFile[] {
  const closure = runtimeClosure(runtimeRoots(files, read), read);
  if (closure.length === 0) return [];
  const extra = ALWAYS.flatMap((path) => {
    const content = read(path);
    return content === undefined ? [] : [{ path, content }];
  });
  return [...closure, ...extra]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(({ path, content }) => ({ path: `${RUNTIME_FOLDER}/${path}`, content }));
}

/** A validator chunk's `const name = require("x")...;`, alone on its line: the precompiled validators are
 * CommonJS, and only the generator's own code starts a line this way (spec strings sit inside literals). */
const REQUIRE_LINE = /^const [\w$]+ = require\("([^"\n]+)"\)/gm;

/** The npm package a bare specifier names (`a/b` → `a`, `@s/a/b` → `@s/a`); undefined for relative ones and node builtins. */
export function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|node:)/.test(specifier) || isBuiltin(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The npm packages a package's code loads, sorted: the bare imports of its runtime files (mcpgen's own
 * code) and the requires of its validator chunks. A package's dependencies are read off the files it
 * carries, never kept by hand, so a feature's library reaches only the packages whose runtime uses it.
 * Files with spec text in them (src/) are not scanned for imports: a spec string is never a dependency.
 */
export function importedPackages(runtime: SourceFile[], validatorChunks: SourceFile[]): string[] {
  const found = new Set<string>();
  const add = (specifier: string) => {
    const name = packageOf(specifier);
    if (name) found.add(name);
  };
  for (const file of runtime) if (/\.[cm]?tsx?$/.test(file.path)) importSpecifiers(file.content).forEach(add);
  for (const file of validatorChunks) for (const match of file.content.matchAll(REQUIRE_LINE)) add(match[1]);
  return [...found].sort();
}
