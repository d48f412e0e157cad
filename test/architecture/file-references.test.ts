/**
 * Comments cite files that exist (issue 28 §6): every `name.ts` a runtime file mentions is a module of
 * the repository or a file a generated package has, and every repository path (`runtime/…`, `generator/…`,
 * `test/…`, `scripts/…`, `bench/…`) mentioned anywhere in runtime/ or generator/ exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../generate/support.ts";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.(ts|md)$/.test(entry.name) ? [path] : [];
  });
}

const RUNTIME = sources("runtime");
// Every module of the repository, by file name: a comment may name one without its folder.
const REPO_NAMES = new Set(
  ["runtime", "generator", "scripts", "test", "bench"].flatMap(sources).map((path) => path.split("/").pop()),
);
// What a generated package's src/ holds, and what the generated files are called.
const PACKAGE_NAMES = new Set(readdirSync(join(ROOT, "generated/weather/src")).filter((name) => name.endsWith(".ts")));

it("runtime comments name only modules of the repository and files of a generated package", () => {
  const stale: string[] = [];
  for (const file of RUNTIME) {
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .forEach((line, index) => {
        for (const [name] of line.matchAll(/\b[\w-]+\.ts\b/g)) {
          if (!REPO_NAMES.has(name) && !PACKAGE_NAMES.has(name)) stale.push(`${file}:${index + 1}: ${name}`);
        }
      });
  }
  expect(stale).toEqual([]);
});

it("repository paths named in runtime/ and generator/ exist", () => {
  const missing: string[] = [];
  for (const file of [...RUNTIME, ...sources("generator")]) {
    for (const [path] of readFileSync(join(ROOT, file), "utf8").matchAll(
      /\b(?:runtime|generator|test|scripts|bench|templates)\/[\w./-]+\.(?:ts|hbs|md|json|yaml)\b/g,
    )) {
      // A path inside a generated package (its runtime/ copy) is the same file as the repository's.
      if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
    }
  }
  expect(missing).toEqual([]);
});
