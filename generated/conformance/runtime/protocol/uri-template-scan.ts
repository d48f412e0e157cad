// Where each part of a URI template lies in a concrete URI, in time linear in the URI's length
// (O(n·k) for k template parts). A regular expression with lazy groups backtracked here: one
// 10 kB URI against file:///{+path}{?rev} took 0.6 s, and {a}-{b}-{c}-{d} grew as n⁴, so any
// client could stall resources/read. Instead: one backward pass marks, for every part and every
// position, whether the rest of the URI can match from there; one forward pass then takes, part by
// part, the first end (in the order below) from which the rest still matches. Each part's possible
// ends from a position are a few ranges, so each position costs O(1) per part.

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

/**
 * How one part is scanned: `ends` lists its possible ends from one position (the forward pass);
 * `fill` marks every position from which it and the parts after it match, given `next` (the first
 * position ≥ p from which the parts after it match), in one tight loop (the backward pass).
 */
export type ScannedPart = { ends: Ends; fill: Fill };
type Fill = (scan: Scan, next: Int32Array, reach: Uint8Array) => void;

/** How one template part is scanned; query expressions after the first are folded into it. */
export function scannedPart(part: UriTemplatePart): ScannedPart {
  if (typeof part === "string") return literal(part);
  const { operator } = part;
  if (operator === "") return runOfAtLeastOne("segment");
  if (operator === "+") return runOfAtLeastOne("line");
  if (operator === "#" || operator === ".")
    return optionalRun(RULES[operator].first, operator === "#" ? "line" : "segment");
  if (operator === "?" || operator === "&") return optionalRun(operator, "query");
  if (operator === "/") return pathSegments(part.variables.length);
  return pathParameters(part);
}

function literal(text: string): ScannedPart {
  return {
    ends: (scan, start, out) => {
      if (scan.uri.startsWith(text, start)) out.push(start + text.length, start + text.length);
    },
    fill: ({ uri }, next, reach) => {
      for (let p = 0, end = text.length; end <= uri.length; p++, end++)
        if (next[end] === end && uri.startsWith(text, p)) reach[p] = 1;
    },
  };
}

function runOfAtLeastOne(name: ClassName): ScannedPart {
  const test = CLASSES[name];
  return {
    ends: (scan, start, out) => {
      const end = scan.runEnd(name, start);
      if (end > start) out.push(start + 1, end);
    },
    fill: ({ uri }, next, reach) => {
      let end = uri.length; // where the run from p stops
      for (let p = uri.length - 1; p >= 0; p--) {
        if (!test(uri.charCodeAt(p))) end = p;
        else if (next[p + 1] <= end) reach[p] = 1;
      }
    },
  };
}

/** '#…', '.…', '?…', '&…': the marker and a run, or nothing at all (present is preferred). */
function optionalRun(marker: string, name: ClassName): ScannedPart {
  const test = CLASSES[name];
  const code = marker.charCodeAt(0);
  return {
    ends: (scan, start, out) => {
      if (scan.uri.charCodeAt(start) === code) out.push(start + 1, scan.runEnd(name, start + 1));
      out.push(start, start);
    },
    fill: ({ uri }, next, reach) => {
      const n = uri.length;
      if (next[n] === n) reach[n] = 1;
      let end = n; // where the run from p + 1 stops
      for (let p = n - 1; p >= 0; p--) {
        const c = uri.charCodeAt(p);
        if (next[p] === p || (c === code && next[p + 1] <= end)) reach[p] = 1;
        if (!test(c)) end = p;
      }
    },
  };
}

/**
 * {/a,b,c}: up to `count` segments, each '/' and a run of [^/?#]. More segments are preferred, as a
 * greedy {0,count} did: a URI that names every variable fills every one of them.
 */
function pathSegments(count: number): ScannedPart {
  const ends: Ends = (scan, start, out) => {
    const limit = scan.runEnd("path", start);
    const starts: number[] = []; // where each segment's '/' is
    for (let slash = start; slash < limit && scan.uri.charCodeAt(slash) === 0x2f && starts.length < count; ) {
      starts.push(slash);
      slash = scan.runEnd("notSlash", slash + 1);
    }
    for (let segments = starts.length; segments > 0; segments--) {
      const last = starts[segments - 1];
      out.push(last + 1, Math.min(limit, scan.runEnd("notSlash", last + 1)));
    }
    out.push(start, start);
  };
  // The segments from p end at most at the (count + 1)th '/' from p, and before any '?' or '#'.
  const fill: Fill = ({ uri }, next, reach) => {
    const n = uri.length;
    if (next[n] === n) reach[n] = 1;
    let pathEnd = n;
    const slashes: number[] = []; // the nearest count + 1 '/' at or after p
    for (let p = n - 1; p >= 0; p--) {
      const c = uri.charCodeAt(p);
      if (c === 0x3f || c === 0x23) pathEnd = p;
      if (c === 0x2f && slashes.unshift(p) > count + 1) slashes.pop();
      const limit = Math.min(pathEnd, slashes.length > count ? slashes[count] : n);
      if (next[p] === p || (c === 0x2f && next[p + 1] <= limit)) reach[p] = 1;
    }
  };
  return { ends, fill };
}

/**
 * {;a,b}: up to `count` items ';name' or ';name=value' (value a run of [^/?#;&]), more items first.
 * Only an item followed by ';' can be followed by another, and at most one name at a position can
 * be: a shorter name that prefixes a longer one is followed by a name character, never ';' or '='.
 */
function pathParameters(expression: UriExpression): ScannedPart {
  const names = [...new Set(expression.variables.map((variable) => variable.name))].sort((a, b) => b.length - a.length);
  const count = expression.variables.length;
  // Calls visit(lo, hi, item) for each range of ends, item by item, until visit returns true.
  const walk = (scan: Scan, start: number, visit: (lo: number, hi: number, item: number) => boolean): void => {
    let item = start;
    for (let seen = 0; seen < count && scan.uri.charCodeAt(item) === 0x3b; seen++) {
      let next = -1;
      for (const name of names) {
        if (!scan.uri.startsWith(name, item + 1)) continue;
        const afterName = item + 1 + name.length;
        let complete = afterName;
        if (scan.uri.charCodeAt(afterName) === 0x3d) {
          complete = scan.runEnd("param", afterName + 1);
          if (visit(afterName + 1, complete, seen)) return;
        }
        if (visit(afterName, afterName, seen)) return;
        if (scan.uri.charCodeAt(complete) === 0x3b) next = complete;
      }
      if (next < 0) return;
      item = next;
    }
  };
  const ends: Ends = (scan, start, out) => {
    const items: number[][] = [];
    walk(scan, start, (lo, hi, item) => {
      items[item] ??= [];
      items[item].push(lo, hi);
      return false;
    });
    for (let i = items.length - 1; i >= 0; i--) out.push(...(items[i] ?? []));
    out.push(start, start);
  };
  const fill: Fill = (scan, next, reach) => {
    let hit = false;
    const visit = (lo: number, hi: number) => {
      hit = next[lo] <= hi;
      return hit;
    };
    for (let p = 0; p <= scan.uri.length; p++) {
      hit = next[p] === p;
      if (!hit) walk(scan, p, visit);
      if (hit) reach[p] = 1;
    }
  };
  return { ends, fill };
}

/**
 * Where each part lies in `uri` ([start, end) per part), or undefined when the template does not
 * match. Of several ways to match, each part takes the first end in its own order (a value as short
 * as possible, present before absent, more segments or parameters first); matchProblem refuses
 * templates where the choice could matter for a URI a client expanded.
 */
export function scanUri(parts: ScannedPart[], uri: string): Array<[number, number]> | undefined {
  const n = uri.length;
  const scan = new Scan(uri);
  // reach[i][p] = 1 when parts i… can match uri[p…] exactly; reach[parts.length] is "at the end".
  const reach = Array.from({ length: parts.length + 1 }, () => new Uint8Array(n + 1));
  reach[parts.length][n] = 1;
  const next = new Int32Array(n + 2); // next[p]: first reachable position ≥ p for the part after
  for (let i = parts.length - 1; i >= 0; i--) {
    nextReachable(reach[i + 1], next);
    if (next[0] > n) return undefined;
    parts[i].fill(scan, next, reach[i]);
  }
  if (!reach[0][0]) return undefined;
  const ranges: number[] = [];
  const spans: Array<[number, number]> = [];
  let position = 0;
  for (let i = 0; i < parts.length; i++) {
    nextReachable(reach[i + 1], next);
    ranges.length = 0;
    parts[i].ends(scan, position, ranges);
    let end = -1;
    for (let r = 0; r < ranges.length && end < 0; r += 2) if (next[ranges[r]] <= ranges[r + 1]) end = next[ranges[r]];
    if (end < 0) return undefined; // cannot happen: fill and ends list the same ends
    spans.push([position, end]);
    position = end;
  }
  return spans;
}

function nextReachable(reach: Uint8Array, next: Int32Array): void {
  next[reach.length] = reach.length;
  for (let p = reach.length - 1; p >= 0; p--) next[p] = reach[p] ? p : next[p + 1];
}
