// Reading headers cheaply per request. Repeats are counted on `req.rawHeaders` (Node keeps the first Host or
// Content-Type and joins Mcp-* lines); `req.headersDistinct` would build every header's array per request.
import type { IncomingMessage } from "node:http";

/** `compute` with its last answer kept: a client repeats its Host, Accept, Content-Type and credentials. */
export function keepLast<T>(compute: (key: string) => T): (key: string) => T {
  let lastKey: string | undefined;
  let last: T;
  return (key) => {
    if (key !== lastKey) [last, lastKey] = [compute(key), key];
    return last;
  };
}

/** How many header lines name `lowerName` (lowercase), whatever their case. */
export function headerLineCount(req: IncomingMessage, lowerName: string): number {
  const raw = req.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index];
    if (name.length === lowerName.length && (name === lowerName || name.toLowerCase() === lowerName)) count++;
  }
  return count;
}

/** The first `mcp-*` header (lowercase, in order of first appearance) sent on more than one line. */
export function repeatedMcpHeader(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  let seen: string[] | Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index];
    if (name.length < 4 || (name[0] !== "m" && name[0] !== "M")) continue;
    const lower = name.toLowerCase();
    if (!lower.startsWith("mcp-")) continue;
    seen ??= [];
    if (seen instanceof Set ? seen.has(lower) : seen.includes(lower)) return firstRepeated(req);
    // A handful of Mcp-* headers is the rule (an array is cheapest); a Set keeps many of them linear.
    if (seen instanceof Set) seen.add(lower);
    else if (seen.length < 16) seen.push(lower);
    else seen = new Set([...seen, lower]);
  }
  return undefined;
}

/** The error path: named in Node's grouping order (first appearance), as before. */
function firstRepeated(req: IncomingMessage): string | undefined {
  for (const [name, values] of Object.entries(req.headersDistinct))
    if (name.startsWith("mcp-") && values !== undefined && values.length > 1) return name;
  return undefined;
}
