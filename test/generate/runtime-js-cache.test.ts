/**
 * The runtime's JavaScript is kept across runs (generator/output/runtime-js-cache.ts): a second
 * generate reads what the first transpiled, a changed runtime file is never served stale output, a
 * damaged cache file is ignored, and MCPGEN_CACHE=off writes nothing. What it holds runs at start, so a
 * folder others can write is never used, and an entry is used only for the TypeScript it was made from.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDist, transpileFile } from "../../generator/output/compile-dist.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { freshCacheEachTest } from "./cache-env.ts";
import { scratchDir } from "./support.ts";

const RUNTIME_FILE = "runtime/protocol/own-keys.ts";

/** A package with two runtime files and one source file, enough for renderDist. */
function fakePackage(name: string, ownKeys = "export const own = 1;\n"): OutputDir {
  const root = join(scratchDir("runtime-js-cache"), name);
  mkdirSync(join(root, "runtime/protocol"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, RUNTIME_FILE), ownKeys);
  writeFileSync(
    join(root, "runtime/protocol/codec.ts"),
    'import { own } from "./own-keys.ts";\nexport const x: number = own;\n',
  );
  writeFileSync(join(root, "src/server.ts"), 'import "../runtime/protocol/codec.ts";\n');
  return new OutputDir(root);
}

const jsOf = (dir: OutputDir, path: string) =>
  renderDist(dir).find((file) => file.path === `dist/${path.replace(/\.ts$/, ".js")}`)?.content;

const cacheFolder = freshCacheEachTest("runtime-js-cache");

const cacheFiles = () =>
  existsSync(cacheFolder()) ? readdirSync(cacheFolder()).filter((name) => name.endsWith(".json")) : [];

describe("the runtime's JavaScript cache", () => {
  it("the first run stores the transpiler's output; the next package reads it back", () => {
    const first = fakePackage("first");
    const js = jsOf(first, RUNTIME_FILE);
    expect(js).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
    expect(cacheFiles()).toHaveLength(1);
    // Mark the stored output: a second package with the same runtime gets the marked text, so it was read.
    const file = join(cacheFolder(), cacheFiles()[0] as string);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    stored.files[RUNTIME_FILE].js = "// from the cache\n";
    writeFileSync(file, JSON.stringify(stored));
    expect(jsOf(fakePackage("second"), RUNTIME_FILE)).toBe("// from the cache\n");
  });

  it("a runtime with other bytes gets its own entry, never the stale output", () => {
    jsOf(fakePackage("old"), RUNTIME_FILE);
    const changed = "export const own = 2;\n";
    expect(jsOf(fakePackage("new", changed), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, changed));
    expect(cacheFiles()).toHaveLength(2);
  });

  it("a damaged cache file is ignored and replaced", () => {
    jsOf(fakePackage("one"), RUNTIME_FILE);
    const file = join(cacheFolder(), cacheFiles()[0] as string);
    writeFileSync(file, "{ not json");
    expect(jsOf(fakePackage("two"), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
    expect(() => JSON.parse(readFileSync(file, "utf8"))).not.toThrow();
  });

  it("a folder others can write is neither read nor written (issue 27: planted JavaScript ran at start)", () => {
    jsOf(fakePackage("planted"), RUNTIME_FILE);
    const file = join(cacheFolder(), cacheFiles()[0] as string);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    stored.files[RUNTIME_FILE].js = "process.exit(66); // planted\n";
    writeFileSync(file, JSON.stringify(stored));
    chmodSync(cacheFolder(), 0o777);
    expect(jsOf(fakePackage("victim"), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
    // Nor is a cache file others can write, in a folder that is ours.
    chmodSync(cacheFolder(), 0o700);
    chmodSync(file, 0o666);
    expect(jsOf(fakePackage("victim-2"), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
    chmodSync(cacheFolder(), 0o777);
    jsOf(fakePackage("other", "export const own = 3;\n"), RUNTIME_FILE);
    expect(cacheFiles()).toHaveLength(1);
  });

  it("an entry is used only for the TypeScript it was made from", () => {
    jsOf(fakePackage("mixed"), RUNTIME_FILE);
    const file = join(cacheFolder(), cacheFiles()[0] as string);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    // Another file's entry under this file's name: its source hash gives it away.
    stored.files[RUNTIME_FILE] = stored.files["runtime/protocol/codec.ts"];
    writeFileSync(file, JSON.stringify(stored));
    expect(jsOf(fakePackage("mixed-2"), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
  });

  it("MCPGEN_CACHE=off writes nothing", () => {
    process.env.MCPGEN_CACHE = "off";
    expect(jsOf(fakePackage("off"), RUNTIME_FILE)).toBe(transpileFile(RUNTIME_FILE, "export const own = 1;\n"));
    expect(existsSync(cacheFolder())).toBe(false);
  });
});
