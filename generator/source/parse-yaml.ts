/**
 * A YAML text (or JSON that is not plain) into a value plus a locator, through `yaml`, which keeps every
 * node's offset. Syntax errors, duplicate keys, several documents, alias bombs and self-containing aliases
 * each become a diagnostic.
 */
import { LineCounter, parseAllDocuments } from "yaml";
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { duplicateKeys } from "./duplicate-keys.ts";
import { childPointer } from "./json-pointer.ts";
import { MAX_ALIAS_COUNT } from "./limits.ts";
import type { SourceDoc } from "./source-doc.ts";
import { buildLocator } from "./yaml-locator.ts";
import { syntaxProblems } from "./yaml-syntax.ts";

export function parseText(file: string, text: string, bag: DiagnosticBag, anyValue = false): SourceDoc | undefined {
  const lineCounter = new LineCounter();
  // uniqueKeys: false because yaml checks each key against every earlier key of its map (quadratic:
  // minutes for an OpenAPI document with 100,000 paths); duplicateKeys() does it with a Set instead.
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true });
  const position = (offset: number) => lineCounter.linePos(Math.min(offset, text.length));
  const list = Array.isArray(docs) ? docs : [];
  const doc = list[0];
  if (!doc || doc.contents === null) {
    bag.reporter(file, () => ({ line: 1, col: 1 }))("FILE_EMPTY", "", `'${file}' holds no document`);
    return undefined;
  }
  const locate = buildLocator(doc.contents, position);
  const report = bag.reporter(file, locate);

  let failed = false;
  if (list.length > 1) {
    const second = list[1].range[0];
    bag.reporter(file, () => position(second))(
      "YAML_MULTIPLE_DOCUMENTS",
      "",
      "the file holds more than one YAML document",
    );
    failed = true;
  }
  for (const error of doc.errors) {
    if (error.code !== "DUPLICATE_KEY") continue;
    bag.reporter(file, () => position(error.pos[0]))(
      "YAML_DUPLICATE_KEY",
      "",
      `duplicate key '${text.slice(error.pos[0], error.pos[1]).trim()}'`,
    );
    failed = true;
  }
  // One mistake makes the parser report dozens of echoes: yaml-syntax.ts keeps the real ones.
  const syntax = doc.errors.filter((error) => error.code !== "DUPLICATE_KEY");
  for (const problem of syntaxProblems(text, syntax, syntaxMessage)) {
    const hint = problem.hint ? { hint: problem.hint } : {};
    bag.reporter(file, () => position(problem.offset))("YAML_SYNTAX", "", problem.message, hint);
    failed = true;
  }
  for (const key of duplicateKeys(doc.contents)) {
    bag.reporter(file, () => position(key.offset))("YAML_DUPLICATE_KEY", "", `duplicate key '${key.name}'`);
    failed = true;
  }
  if (failed) return undefined;

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = /alias/i.test(message) ? "YAML_ALIAS_LIMIT" : "YAML_SYNTAX";
    report(
      code,
      "",
      code === "YAML_ALIAS_LIMIT" ? `aliases expand beyond ${MAX_ALIAS_COUNT} nodes` : syntaxMessage(message),
    );
    return undefined;
  }
  // Aliases make toJS share one object between places, or contain itself (`a: &x { b: *x }`). Every later
  // stage expects a tree, so shared nodes are copied (bounded by MAX_ALIAS_COUNT) and cycles refused.
  if (text.includes("*")) {
    const tree = toTree(value);
    if (!tree.ok) {
      report(
        "YAML_ALIAS_LIMIT",
        tree.pointer,
        "an alias refers to a node that contains it, so the value is infinitely deep",
      );
      return undefined;
    }
    value = tree.value;
  }
  if (!anyValue && (value === null || typeof value !== "object" || Array.isArray(value))) {
    const found = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    report("SPEC_NOT_MAPPING", "", `the top level is ${found}, not a mapping`);
    return undefined;
  }
  return { file, value, locate, report };
}

/** A copy of `value` in which no object appears twice; fails on the first object that contains itself. */
export function toTree(value: unknown): { ok: true; value: unknown } | { ok: false; pointer: string } {
  const ancestors = new Set<object>();
  let cycle: string | undefined;
  const copy = (node: unknown, pointer: string): unknown => {
    if (node === null || typeof node !== "object" || cycle !== undefined) return node;
    if (ancestors.has(node)) {
      cycle = pointer;
      return undefined;
    }
    ancestors.add(node);
    const result = Array.isArray(node)
      ? node.map((item, i) => copy(item, childPointer(pointer, String(i))))
      : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, copy(v, childPointer(pointer, k))]));
    ancestors.delete(node);
    return result;
  };
  const result = copy(value, "");
  return cycle === undefined ? { ok: true, value: result } : { ok: false, pointer: cycle };
}

/** The parser recurses per nesting level; a document nested ~1,000 deep overflows the stack. Say so plainly. */
function syntaxMessage(message: string): string {
  if (/Maximum call stack size exceeded/.test(message)) {
    return "the document nests too deeply to be read (hundreds of levels); flatten it, e.g. with $ref";
  }
  return firstLine(message);
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}
