// A parsed YAML document as the rest of the generator needs it: a plain tree (shared alias nodes copied,
// cycles refused), its duplicate keys, and a locator from JSON pointers to line:col. Shared by the whole-file
// reader (read-source.ts) and the chunked reader of huge files (yaml-chunks.ts).
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from "yaml";
import type { Locator } from "./diagnostics.ts";
import { childPointer, parentPointer } from "./json-pointer.ts";

/** How many alias expansions a document may cause: real specs use a handful, a billion-laughs bomb millions. */
export const MAX_ALIAS_COUNT = 1000;

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

/** The YAML parser's locator for a text: what the JSON fast path's locator must agree with (tested). */
export function yamlLocator(text: string): Locator {
  const lineCounter = new LineCounter();
  const doc = parseAllDocuments(text, { lineCounter, uniqueKeys: false })[0];
  if (!doc || !("contents" in doc) || !doc.contents) return () => ({ line: 1, col: 1 });
  return buildLocator(doc.contents, (offset) => lineCounter.linePos(Math.min(offset, text.length)));
}

/** Scalar keys that repeat within one mapping, in document order (aliases are not followed). */
export function duplicateKeys(root: Node): Array<{ name: string; offset: number }> {
  const found: Array<{ name: string; offset: number }> = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          if (seen.has(key.value)) found.push({ name: String(key.value), offset: key.range?.[0] ?? 0 });
          seen.add(key.value);
        }
        if (key && typeof key === "object" && !isScalar(key)) stack.push(key);
        const value = pair.value as Node | null;
        if (value && typeof value === "object") stack.push(value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) if (item && typeof item === "object") stack.push(item as Node);
    }
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/**
 * Records the offset of every key and value by JSON pointer. Walks iteratively so deeply nested
 * documents cannot overflow the stack, and never follows aliases (an alias bomb stays one node here).
 */
export function buildLocator(root: Node, position: (offset: number) => { line: number; col: number }): Locator {
  const values = new Map<string, number>();
  const keys = new Map<string, number>();
  const stack: Array<[Node, string]> = [[root, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (node.range) values.set(pointer, node.range[0]);
    if (isAlias(node)) continue;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const name = isScalar(key) ? String(key.value) : String(key);
        const child = childPointer(pointer, name);
        if (key?.range) keys.set(child, key.range[0]);
        const value = pair.value as Node | null;
        if (value && typeof value === "object" && "range" in value) stack.push([value, child]);
        else if (key?.range) values.set(child, key.range[0]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        if (item && typeof item === "object") stack.push([item as Node, childPointer(pointer, String(index))]);
      });
    }
  }
  return (pointer, target = "value") => {
    for (let p: string | undefined = pointer; p !== undefined; p = parentPointer(p)) {
      const offset = (target === "key" ? keys.get(p) : undefined) ?? values.get(p);
      if (offset !== undefined) return position(offset);
    }
    return { line: 1, col: 1 };
  };
}
