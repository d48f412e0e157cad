/**
 * Positions in a TypeScript or JavaScript config by JSON pointer, without a parser: each segment of the
 * pointer is found as a key (`name:`, `"name":` or `'name':`) after the previous one, and an array
 * index as the n-th `{` after it. Good enough to point at the line of a config's mistake.
 */
import type { Locator } from "../diagnostics/diagnostic.ts";
import { segments } from "../source/json-pointer.ts";

export function sourceLocator(text: string): Locator {
  const position = (offset: number) => {
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, col: (before.at(-1)?.length ?? 0) + 1 };
  };
  // The value the config exports: after `export default`, else the start.
  const start = Math.max(0, text.search(/export\s+default\b/));
  return (pointer) => {
    let at = start;
    let found = start;
    for (const segment of segments(pointer)) {
      if (/^\d+$/.test(segment)) {
        // An array entry: skip to the (n+1)-th object that opens after the array's key.
        let open = text.indexOf("[", at);
        for (let n = 0; open >= 0 && n <= Number(segment); n++) open = text.indexOf("{", open + 1);
        if (open < 0) break;
        at = found = open;
        continue;
      }
      const escaped = segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const key = new RegExp(`(?:^|[\\s{,])(["']?)${escaped}\\1\\s*:`, "g");
      key.lastIndex = at;
      const match = key.exec(text);
      if (!match) break;
      at = found = match.index + (/^[\s{,]*/.exec(match[0])?.[0].length ?? 0);
    }
    return position(found);
  };
}
