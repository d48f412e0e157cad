// Where each part of a URI template lies in a URI, in O(n·k) time for k parts: a backtracking regex
// took 0.6 s for 10 kB against file:///{+path}{?rev}, so any client could stall resources/read. A
// backward pass marks, per part and position, whether the rest can match from there; a forward pass
// gives each part the first end (in its preferred order) from which the rest matches.
import { RULES, type UriExpression, type UriTemplatePart } from "./uri-template.ts";

/** Possible ends of one part starting at `start`, pushed as [lo, hi] pairs in the order preferred. */
type Ends = (scan: Scan, start: number, out: number[]) => void;

/** Character classes a part's text may run over, as predicates on UTF-16 code units. */
const CLASSES = {
  segment: (c: number) => c !== 0x2f && c !== 0x3f && c !== 0x23, // [^/?#]
  line: (c: number) => c !== 0x0a && c !== 0x0d && c !== 0x2028 && c !== 0x2029, // what '.' matched
  path: (c: number) => c !== 0x3f && c !== 0x23, // [^?#]
  param: (c: number) => c !== 0x2f && c !== 0x3f && c !== 0x23 && c !== 0x3b && c !== 0x26, // [^/?#;&]
  query: (c: number) => c !== 0x23, // [^#]
  notSlash: (c: number) => c !== 0x2f,
};
type ClassName = keyof typeof CLASSES;

/** One URI being matched: runEnd(class, p) is where the run of class characters from p stops. */
class Scan {
  private readonly runs = new Map<ClassName, Int32Array>();
  constructor(readonly uri: string) {}

  runEnd(name: ClassName, start: number): number {
    let ends = this.runs.get(name);
    if (!ends) {
      const test = CLASSES[name];
      ends = new Int32Array(this.uri.length + 1);
      ends[this.uri.length] = this.uri.length;
      for (let i = this.uri.length - 1; i >= 0; i--) ends[i] = test(this.uri.charCodeAt(i)) ? ends[i + 1] : i;
      this.runs.set(name, ends);
    }
    return ends[start];
  }
}

/** How one template part is scanned; query expressions after the first are folded into it. */
export function scannedPart(part: UriTemplatePart): Ends {
  if (typeof part === "string") {
    return (scan, start, out) => {
      if (scan.uri.startsWith(part, start)) out.push(start + part.length, start + part.length);
    };
  }
  const { operator } = part;
  if (operator === "" || operator === "+") {
    const name = operator === "" ? "segment" : "line";
    return (scan, start, out) => {
      const end = scan.runEnd(name, start);
      if (end > start) out.push(start + 1, end);
    };
  }
  if (operator === "/") return pathSegments(part.variables.length);
  if (operator === ";") return pathParameters(part);
  // '#…', '.…', '?…', '&…': the marker and a run, or nothing at all (present is preferred).
  const name = operator === "#" ? "line" : operator === "." ? "segment" : "query";
  const code = RULES[operator].first.charCodeAt(0);
  return (scan, start, out) => {
    if (scan.uri.charCodeAt(start) === code) out.push(start + 1, scan.runEnd(name, start + 1));
    out.push(start, start);
  };
}

/** {/a,b,c}: up to `count` segments '/' + [^/?#]*, more first: a URI naming every variable fills them all. */
function pathSegments(count: number): Ends {
  return (scan, start, out) => {
    const limit = scan.runEnd("path", start);
    const starts: number[] = []; // where each segment's '/' is
    for (let slash = start; slash < limit && scan.uri.charCodeAt(slash) === 0x2f && starts.length < count; ) {
      starts.push(slash);
      slash = scan.runEnd("notSlash", slash + 1);
    }
    for (const last of starts.reverse()) out.push(last + 1, Math.min(limit, scan.runEnd("notSlash", last + 1)));
    out.push(start, start);
  };
}

// {;a,b}: up to `count` items ';name' or ';name=value' (value [^/?#;&]*), more items first. Only an item
// followed by ';' can be followed by another, and only one name at a position can be (a shorter name
// that prefixes a longer one is followed by a name character, never ';' or '=').
function pathParameters(expression: UriExpression): Ends {
  const names = [...new Set(expression.variables.map((variable) => variable.name))].sort((a, b) => b.length - a.length);
  return (scan, start, out) => {
    const items: number[][] = []; // the ends of each item, item by item
    for (let item = start; items.length < expression.variables.length && scan.uri.charCodeAt(item) === 0x3b; ) {
      const ends: number[] = [];
      let next = -1;
      for (const name of names) {
        if (!scan.uri.startsWith(name, item + 1)) continue;
        const afterName = item + 1 + name.length;
        let complete = afterName;
        if (scan.uri.charCodeAt(afterName) === 0x3d) {
          complete = scan.runEnd("param", afterName + 1);
          ends.push(afterName + 1, complete);
        }
        ends.push(afterName, afterName);
        if (scan.uri.charCodeAt(complete) === 0x3b) next = complete;
      }
      items.push(ends);
      if (next < 0) break;
      item = next;
    }
    for (const ends of items.reverse()) out.push(...ends);
    out.push(start, start);
  };
}

// [start, end) of each part in `uri`, or undefined. Each part takes the first end in its own order
// (shortest value, present before absent, more segments or parameters first); matchProblem refuses
// templates where that choice could matter for a URI a client expanded.
export function scanUri(parts: Ends[], uri: string): Array<[number, number]> | undefined {
  const n = uri.length;
  const scan = new Scan(uri);
  // reach[i][p] = 1 when parts i… can match uri[p…] exactly; reach[parts.length] is "at the end".
  const reach = Array.from({ length: parts.length + 1 }, () => new Uint8Array(n + 1));
  reach[parts.length][n] = 1;
  const next = new Int32Array(n + 2); // next[p]: first reachable position ≥ p for the part after
  // The first end of parts[i] from `start` from which the parts after it match, or -1.
  const firstEnd = (i: number, start: number): number => {
    const ranges: number[] = [];
    parts[i](scan, start, ranges);
    for (let r = 0; r < ranges.length; r += 2) if (next[ranges[r]] <= ranges[r + 1]) return next[ranges[r]];
    return -1;
  };
  for (let i = parts.length - 1; i >= 0; i--) {
    nextReachable(reach[i + 1], next);
    if (next[0] > n) return undefined;
    // Ends are never before their start, so past the last reachable position nothing matches.
    for (let p = 0; next[p] <= n; p++) if (firstEnd(i, p) >= 0) reach[i][p] = 1;
  }
  if (!reach[0][0]) return undefined;
  const spans: Array<[number, number]> = [];
  for (let i = 0, position = 0; i < parts.length; i++) {
    nextReachable(reach[i + 1], next);
    const end = firstEnd(i, position);
    if (end < 0) return undefined; // cannot happen: reach[i][position] is set
    spans.push([position, end]);
    position = end;
  }
  return spans;
}

function nextReachable(reach: Uint8Array, next: Int32Array): void {
  next[reach.length] = reach.length;
  for (let p = reach.length - 1; p >= 0; p--) next[p] = reach[p] ? p : next[p + 1];
}
