/**
 * Duplicate mapping keys in a YAML tree, found with one Set per mapping. The parser's own check compares
 * each key with every earlier key of its map: quadratic, minutes for a document with 100,000 paths.
 */
import { isMap, isScalar, isSeq, type Node } from "yaml";

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
