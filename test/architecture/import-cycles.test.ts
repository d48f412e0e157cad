// The import graphs of runtime/ and generator/ have no cycles, type-only imports included: a cycle,
// even of types, means two files each know the other's insides, and it blocks moving either one.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Every .ts/.cts/.mts file under a folder (recursive), as absolute paths. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.[cm]?ts$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => join(folder, name));
}

/** The relative imports of a file (static, dynamic, `import type`, `export … from`), resolved to files in `files`. */
function importsOf(file: string, files: Set<string>): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((target) => files.has(target));
}

/** The strongly connected components with more than one file (or a file importing itself): each is a cycle. */
function importCycles(folder: string): string[][] {
  const files = new Set(sourceFiles(folder));
  const edges = new Map([...files].map((file) => [file, importsOf(file, files)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(relative(ROOT, member));
    } while (member !== file);
    if (component.length > 1 || edges.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of [...files].sort()) if (!index.has(file)) visit(file);
  return cycles;
}

describe("import cycles", () => {
  for (const folder of ["runtime", "generator"]) {
    it(`${folder}/ has none, type-only imports included`, () => {
      expect(importCycles(join(ROOT, folder))).toEqual([]);
    });
  }

  it("sees type-only imports and re-exports (the check itself works)", () => {
    const dir = mkdtempSync(join(tmpdir(), "import-cycles-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.ts";\nexport type A = B[];\n');
      writeFileSync(join(dir, "b.ts"), 'export type { C as B } from "./c.ts";\n');
      writeFileSync(join(dir, "c.ts"), 'import type { A } from "./a.ts";\nexport type C = { a?: A };\n');
      writeFileSync(join(dir, "d.ts"), 'import type { A } from "./a.ts";\nexport type D = A;\n');
      const cycles = importCycles(dir).map((cycle) => cycle.map((file) => basename(file)));
      expect(cycles).toEqual([["a.ts", "b.ts", "c.ts"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
