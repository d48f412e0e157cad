// No runtime function over 80 lines without a one-line reason (issue 28 §5): a long function is where
// closures and mode branches pile up. One that must stay long says why in a `// long: <reason>` comment on
// the line before it. Every function counts: declarations, methods, accessors, constructors, and function
// or arrow expressions, whether assigned or passed.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const MAX_LINES = 80;
const REASON = /^\s*\/\/ long: \S/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** file:line and length of every function in `text` longer than MAX_LINES without the reason comment. */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      // The comment sits before the statement holding the function (`const f = () => …`, `export …`).
      const statementLine = source.getLineAndCharacterOfPosition(statementOf(node).getStart(source)).line;
      const reasoned = [first, statementLine].some((line) => REASON.test(lines[line - 1] ?? ""));
      if (length > MAX_LINES && !reasoned) found.push(`${file}:${first + 1}: ${length} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The declaration or statement a function is the value of, so a comment above it counts. */
function statementOf(node: ts.Node): ts.Node {
  let current = node;
  while (
    current.parent &&
    (ts.isVariableDeclaration(current.parent) ||
      ts.isVariableDeclarationList(current.parent) ||
      ts.isVariableStatement(current.parent) ||
      ts.isPropertyAssignment(current.parent) ||
      ts.isPropertyDeclaration(current.parent) ||
      ts.isExportAssignment(current.parent))
  )
    current = current.parent;
  return current;
}

it("no runtime function is longer than 80 lines without a `// long:` reason", () => {
  const found = sources(join(ROOT, "runtime"))
    .map((path) => relative(ROOT, path))
    .flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), "utf8")));
  expect(found).toEqual([]);
});

it("counts arrow functions passed as arguments and honours the reason comment", () => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const passed = `run(() => {\n${body}\n});\n`;
  expect(longFunctions("a.ts", passed)).toEqual([`a.ts:1: ${MAX_LINES + 2} lines`]);
  expect(longFunctions("a.ts", `// long: one table, read top to bottom\n${passed}`)).toEqual([]);
  const short = `export function f() {\n${body.split("\n").slice(2).join("\n")}\n}\n`;
  expect(longFunctions("a.ts", short)).toEqual([]);
});
