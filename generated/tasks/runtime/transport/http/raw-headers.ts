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
  let count = 0;
  for (let index = 0; index < req.rawHeaders.length; index += 2)
    if (req.rawHeaders[index].length === lowerName.length && req.rawHeaders[index].toLowerCase() === lowerName) count++;
  return count;
}

/** The first `mcp-*` header (lowercase, in order of first appearance) sent on more than one line. */
export function repeatedMcpHeader(req: IncomingMessage): string | undefined {
  // From the raw lines alone: `req.headers` joins repeats, and walking it or `headersDistinct` cost every call.
  const names: string[] = [];
  for (let index = 0; index < req.rawHeaders.length; index += 2)
    if (/^mcp-/i.test(req.rawHeaders[index])) names.push(req.rawHeaders[index].toLowerCase());
  return names.find((name, index) => names.indexOf(name, index + 1) > index);
}
