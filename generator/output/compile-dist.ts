/**
 * dist/: the package as plain JavaScript, so `node dist/server.js` serves with no build step and no tsx
 * (a tsx start cost about 1.5 s before the first answer; clients with a 1 s discovery probe gave up).
 * Every .ts file under src/ and runtime/ (the user's handlers included, as they are on disk) is
 * transpiled on its own with TypeScript's transpiler (no type check: deterministic, and byte for byte
 * what `npm run build`'s tsc emits, which stays the type-checked way and writes the same layout); a
 * file whose JavaScript is newer than it is left as it is, so a regenerate transpiles only what changed. The data files the code
 * reads beside itself (src/catalog.json, src/search-index.json, src/validators/) are copied, as
 * `npm run build` copies them. dist/ is build output: not in the ownership record, never compared by
 * `--check`, and only files with other bytes are rewritten. The runtime's JavaScript, the same in every
 * package, is kept across runs (output/runtime-js-cache.ts): most of the transpiling is done once per machine.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type { ts as Ts } from "ts-morph";
import { DIST_ENTRY, DIST_ENTRY_SOURCE } from "../render/package-files.ts";
import { writeBundledEntry } from "./bundle-dist.ts";
import { cacheDirectory } from "./cache-folder.ts";
import { remembered } from "./content-cache.ts";
import { distPathOf, removedTwinOf, SOURCE } from "./dist-paths.ts";
import type { OutputDir } from "./output-dir.ts";
import { type RuntimeJs, readRuntimeJs, runtimeJsFile, writeRuntimeJs } from "./runtime-js-cache.ts";

const require = createRequire(import.meta.url);
let typescript: typeof Ts | undefined;

/** TypeScript, loaded on the first file not in a cache: a warm run (every file cached) never pays its 0.3 s. */
function compiler(): typeof Ts {
  typescript ??= (require("ts-morph") as typeof import("ts-morph")).ts;
  return typescript;
}

/** What tsconfig.json says, for one file at a time: ESM for Node 20, `.ts` imports rewritten to `.js`. */
function options(ts: typeof Ts): Ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    newLine: ts.NewLineKind.LineFeed,
  };
}

/**
 * Every dist/ file of the package on disk and its content, without writing. `keepNewer`: leave out a
 * .ts file whose JavaScript is newer than it (written by an earlier generate or `npm run build`, and
 * the source not touched since: generate rewrites only files whose bytes change), as make does; a
 * regenerate then transpiles only what changed, the edited handler included.
 */
export function renderDist(dir: OutputDir, keepNewer = false): Array<{ path: string; content: string }> {
  return [...distFiles(dir, keepNewer)];
}

/**
 * renderDist one file at a time: writeDist holds one file's text, not the package's (Microsoft Graph's
 * src/validators/ alone is 300 MB).
 */
function* distFiles(dir: OutputDir, keepNewer: boolean): Generator<{ path: string; content: string }> {
  const wanted: Array<{ path: string; target: string }> = [];
  for (const path of [...dir.list("src"), ...dir.list("runtime")]) {
    const target = distPathOf(path);
    if (target === undefined || (keepNewer && SOURCE.test(path) && isNewer(dir, target, path))) continue;
    wanted.push({ path, target });
  }
  const runtimeJs = wanted.some(({ path }) => isRuntimeSource(path)) ? runtimeScripts(dir) : undefined;
  yield { path: DIST_ENTRY, content: DIST_ENTRY_SOURCE };
  for (const { path, target } of wanted) {
    const content = dir.read(path);
    if (content === undefined) continue;
    yield { path: target, content: SOURCE.test(path) ? (runtimeJs?.get(path) ?? transpile(path, content)) : content };
  }
}

const isRuntimeSource = (path: string) =>
  path.startsWith("runtime/") && SOURCE.test(path) && distPathOf(path) !== undefined;

/**
 * Names the transpiler's output in the cache: the same sources under another compiler or options differ.
 * The compiler is named by its package's version (ts-morph's pins one TypeScript), read without loading it.
 */
const COMPILER = `@ts-morph/common ${
  (JSON.parse(readFileSync(require.resolve("@ts-morph/common/package.json"), "utf8")) as { version: string }).version
}\0ES2022 ESNext verbatimModuleSyntax rewriteRelativeImportExtensions LF`;

/** JavaScript for every runtime source of the package, from the cache when an earlier run stored it. */
function runtimeScripts(dir: OutputDir): RuntimeJs {
  const sources = new Map(
    dir.list("runtime").flatMap((path) => (isRuntimeSource(path) ? [[path, dir.read(path) ?? ""]] : [])),
  );
  const folder = cacheDirectory();
  const file = folder === undefined ? undefined : runtimeJsFile(folder, COMPILER, sources);
  const cached = file === undefined || folder === undefined ? undefined : readRuntimeJs(file, folder, sources);
  if (cached !== undefined) return cached;
  const js: RuntimeJs = new Map([...sources].map(([path, content]) => [path, transpile(path, content)]));
  if (file !== undefined && folder !== undefined) writeRuntimeJs(file, folder, sources, js);
  return js;
}

function isNewer(dir: OutputDir, target: string, source: string): boolean {
  const built = statSync(dir.abs(target), { throwIfNoEntry: false });
  return (
    built !== undefined && built.mtimeMs >= (statSync(dir.abs(source), { throwIfNoEntry: false })?.mtimeMs ?? Infinity)
  );
}

/** Line starts that make JavaScript: a value import or export, a declaration that is not a type. */
const VALUE_STATEMENT =
  /^(?:export\s+)?(?:default|const|let|var|function|class|enum|async|declare|abstract|namespace|module)\b|^export\s*[{*]|^import\s+(?!type\b)/m;

/**
 * src/types.ts is types only (GitHub's: 1.6 MB, half a second of parsing to emit `export {};`): its
 * JavaScript is its header and `export {};`, as the transpiler writes it (test/generate/dist-node.test.ts
 * compares). Anything that could emit code (a value import, a const enum) takes the transpiler.
 */
function typesOnly(path: string, content: string): string | undefined {
  if (path !== "src/types.ts" || VALUE_STATEMENT.test(content)) return undefined;
  const header = /^\/\/[^\n]*\n\n/.exec(content)?.[0];
  return header === undefined ? undefined : `${header.trimEnd()}\nexport {};\n`;
}

/** The runtime's files are the same bytes in every package: one transpile per process (watch, config files). */
const transpiled = new Map<string, string>();

function transpile(path: string, content: string): string {
  const known = typesOnly(path, content) ?? transpiled.get(`${path}\0${content}`);
  if (known !== undefined) return known;
  if (path.startsWith("runtime/")) {
    const output = transpileFile(path, content);
    transpiled.set(`${path}\0${content}`, output);
    return output;
  }
  // The package's own files (GitHub's src/app.ts is 197 KB) by content: a regenerate transpiles only what changed.
  return remembered(
    "dist",
    () => `${COMPILER}\0${path}\0${content}`,
    () => transpileFile(path, content),
  );
}

/** The transpiler's own output for a file, never a short cut (tests compare the two). */
export function transpileFile(path: string, content: string): string {
  const ts = compiler();
  return ts.transpileModule(content, { compilerOptions: options(ts), fileName: path }).outputText;
}

/**
 * Writes dist/ for the package on disk. `removed`: source files this run removed; their dist/ twins go
 * too (nothing else in dist/ is deleted but the bundle's own stale chunks: it may hold what `npm run build`
 * or the user put there).
 */
/** Returns how many files of dist/ it wrote (those whose bytes changed): the summary line counts them. */
export async function writeDist(dir: OutputDir, removed: string[] = []): Promise<number> {
  let written = 0;
  for (const { path, content } of distFiles(dir, true)) {
    if (path !== DIST_ENTRY && dir.read(path) !== content) {
      dir.write(path, content);
      written++;
    }
  }
  written += await writeBundledEntry(dir); // the entry: the modules just written, in one file (output/bundle-dist.ts)
  // The bin: npm sets the mode when it installs the package; this is for running it from here.
  dir.makeExecutable(DIST_ENTRY);
  for (const path of removed) {
    const twin = removedTwinOf(path);
    if (twin !== undefined && dir.exists(twin)) dir.remove(twin);
  }
  return written;
}
