// Header line counts read off `req.rawHeaders`: Node keeps only the first of some repeated headers (Host,
// Content-Type) and joins others (Mcp-*), so only the raw lines tell a repeat. `req.headersDistinct` tells it
// too, but builds an object of arrays for every header on every request; these scans allocate nothing.
import type { IncomingMessage } from "node:http";

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
    // A request carries a handful of Mcp-* headers (an array is cheapest); a Set keeps many of them linear.
    if (seen instanceof Set) seen.add(lower);
    else if (seen.length < 16) seen.push(lower);
    else seen = new Set([...seen, lower]);
  }
  return undefined;
}

/** The error path: named as Node's own grouping orders them (first appearance), which the check always used. */
function firstRepeated(req: IncomingMessage): string | undefined {
  for (const [name, values] of Object.entries(req.headersDistinct))
    if (name.startsWith("mcp-") && values !== undefined && values.length > 1) return name;
  return undefined;
}
