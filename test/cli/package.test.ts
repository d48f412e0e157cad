/**
 * Issue 12, "mcpgen as an installable tool", the fast half (test/cli/install.large.ts installs it for
 * real): the tarball holds only what runs, nothing runs at install time, and everything mcpgen imports at
 * run time is a dependency, not a devDependency.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./run.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

function packedFiles(): string[] {
  const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout)[0].files as Array<{ path: string }>).map((f) => f.path);
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? sources(path) : /\.(ts|js|cjs|mjs)$/.test(name) ? [path] : [];
  });
}

describe("the npm package", () => {
  it("has no install script (a global install ran `npm ci --prefix tools/node22`, and downloaded Node 22)", () => {
    for (const script of ["preinstall", "install", "postinstall", "prepare"])
      expect(pkg.scripts[script]).toBeUndefined();
  });

  it("packs only what runs and its docs: bin, generator, runtime, templates, README, SECURITY, docs", () => {
    const files = packedFiles();
    const tops = new Set(files.map((f) => f.split("/")[0]));
    expect([...tops].sort()).toEqual([
      "README.md",
      "SECURITY.md",
      "bin",
      "docs",
      "generator",
      "package.json",
      "runtime",
      "templates",
    ]);
    // About 310 today (the runtime's features, the flag table and issue 27's checks added ~40, issue 31's views
    // ~20; the views' browser sources stay out: the package carries their bundle).
    // docs/ (issue 33) adds ~25: the README links into it, and diagnostic hints and `mcpgen init`'s starter
    // files name its pages, so an installed mcpgen carries them. The otel and upstream-oauth features (issues 34,
    // 35) add ~20: their runtime folders, generator checks and docs pages (367 with them).
    expect(files.length).toBeLessThan(390);
    // What the CLI reads at run time, besides its modules.
    for (const file of [
      "bin/mcpgen.js",
      "generator/schema/mcpgen.schema.json",
      "generator/config/define-config.cjs",
      "generator/config/define-config.ts",
      "templates/package-readme.md.hbs",
      "runtime/package/spec-server.ts",
    ])
      expect(files).toContain(file);
  });

  it("every package that bin/, generator/ and runtime/ import is a dependency", () => {
    const builtins = new Set(builtinModules);
    const imported = new Set<string>();
    for (const file of [...sources("bin"), ...sources("generator"), ...sources("runtime")]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, fromImport, dynamicImport] of text.matchAll(
        // `import type` is erased when the code runs (mdast's node types come with mdast-util-from-markdown).
        /(?:^|\n)\s*(?:import|export)(?!\s+type\s)[\w\s{},*$]*?from\s+["']([^"'./][^"']*)["']|import\(["']([^"'./][^"']*)["']\)/g,
      )) {
        const specifier = fromImport ?? dynamicImport;
        // Template text of generated code (`${up}runtime/...`) is not an import of mcpgen's own.
        if (!specifier || /[${}]/.test(specifier) || specifier.startsWith("node:") || builtins.has(specifier)) continue;
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
        if (name !== "mcpgen") imported.add(name);
      }
    }
    expect([...imported]).toEqual(expect.arrayContaining(["yaml", "ajv", "tsx", "ts-morph"]));
    for (const name of imported) expect(Object.keys(pkg.dependencies), name).toContain(name);
  });

  it('exports defineConfig, so `import { defineConfig } from "mcpgen"` works', async () => {
    expect(pkg.exports["."].default).toBe("./generator/config/define-config.cjs");
    const entry = await import(join(ROOT, pkg.exports["."].default));
    const config = { input: "a.yaml", output: "out" };
    expect(entry.defineConfig(config)).toBe(config);
  });
});
