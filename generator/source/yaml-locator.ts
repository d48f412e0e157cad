/** From JSON pointers to line:col in a YAML text: what every diagnostic about a YAML document points with. */
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from "yaml";
import type { Locator } from "../diagnostics/diagnostic.ts";
import { childPointer, parentPointer } from "./json-pointer.ts";

/** The YAML parser's locator for a text: what the JSON fast path's locator must agree with (tested). */
export function yamlLocator(text: string): Locator {
  const lineCounter = new LineCounter();
  const doc = parseAllDocuments(text, { lineCounter, uniqueKeys: false })[0];
  if (!doc || !("contents" in doc) || !doc.contents) return () => ({ line: 1, col: 1 });
  return buildLocator(doc.contents, (offset) => lineCounter.linePos(Math.min(offset, text.length)));
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
