/**
 * Scans of a JSON text that JSON.parse has already accepted (so it is well formed):
 *  - duplicate keys, which JSON.parse silently resolves to the last one but a spec must not have;
 *  - the line:col of a key or value by JSON pointer, for diagnostics.
 * Each costs tens of milliseconds on GitHub's 13 MB document, against ~2 s for the positioned YAML
 * parse they let read-source skip.
 */
import type { Locator } from "../diagnostics/diagnostic.ts";
import { parentPointer, segments } from "./json-pointer.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function hasDuplicateJsonKeys(text: string): boolean {
  return firstDuplicateJsonKey(text) !== undefined;
}

/** The first key that repeats within its object, and the offset of its second occurrence. */
export function firstDuplicateJsonKey(text: string): { name: string; offset: number } | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT) open.push(new Set());
    else if (c === OPEN_ARRAY) open.push(null);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open.pop();
    else if (c === QUOTE) {
      const end = stringEnd(text, i);
      const keys = open[open.length - 1];
      if (keys && text.charCodeAt(tokenAt(text, end + 1)) === COLON) {
        const key = stringAt(text, i, end);
        if (keys.has(key)) return { name: key, offset: i };
        keys.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

/**
 * A locator with the same answers as the YAML one: a key's or value's line:col, else its nearest
 * ancestor's. No pointer is built up front: one pass finds where each object and array closes, and a
 * lookup walks down from the root through each container's entries, read once on the first lookup into it.
 */
export function jsonLocator(text: string): Locator {
  const ends = containerEnds(text);
  const position = linePositions(text);
  const skip = (at: number): number => {
    const c = text.charCodeAt(at);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) return (ends.get(at) ?? text.length - 1) + 1;
    if (c === QUOTE) return stringEnd(text, at) + 1;
    let i = at;
    while (i < text.length && !isDelimiter(text.charCodeAt(i))) i++;
    return i;
  };
  // An object's keys by name, made on the first lookup into it: Microsoft Graph's thousands of
  // diagnostics each reading the 11,000 keys of `paths` once cost 11 s. The last copy of a key wins, as in
  // JSON.parse (the duplicate-key check has refused documents with any).
  const indexes = new Map<number, Map<string, { key: number; value: number }>>();
  const keysOf = (at: number) => {
    let index = indexes.get(at);
    if (index) return index;
    index = new Map();
    for (let i = tokenAt(text, at + 1); text.charCodeAt(i) === QUOTE; ) {
      const end = stringEnd(text, i);
      const value = tokenAt(text, tokenAt(text, end + 1) + 1);
      index.set(stringAt(text, i, end), { key: i, value });
      i = tokenAt(text, skip(value));
      if (text.charCodeAt(i) === COMMA) i = tokenAt(text, i + 1);
    }
    indexes.set(at, index);
    return index;
  };
  const lists = new Map<number, number[]>();
  const itemsOf = (at: number) => {
    let items = lists.get(at);
    if (items) return items;
    items = [];
    for (let i = tokenAt(text, at + 1); i < text.length && text.charCodeAt(i) !== CLOSE_ARRAY; ) {
      items.push(i);
      i = tokenAt(text, skip(i));
      if (text.charCodeAt(i) === COMMA) i = tokenAt(text, i + 1);
    }
    lists.set(at, items);
    return items;
  };
  const find = (pointer: string, target: "key" | "value"): number | undefined => {
    let at = tokenAt(text, 0);
    const path = segments(pointer);
    for (let depth = 0; depth < path.length; depth++) {
      const segment = path[depth];
      const c = text.charCodeAt(at);
      let found: { key?: number; value: number } | undefined;
      if (c === OPEN_OBJECT) {
        found = keysOf(at).get(segment);
      } else if (c === OPEN_ARRAY && /^(0|[1-9]\d*)$/.test(segment)) {
        const value = itemsOf(at)[Number(segment)];
        if (value !== undefined) found = { value };
      }
      if (!found) return undefined;
      if (depth === path.length - 1 && target === "key" && found.key !== undefined) return found.key;
      at = found.value;
    }
    return at;
  };
  return (pointer, target = "value") => {
    for (let p: string | undefined = pointer; p !== undefined; p = parentPointer(p)) {
      const offset = find(p, target);
      if (offset !== undefined) return position(offset);
    }
    return { line: 1, col: 1 };
  };
}

/** Where each object and array that opens at an offset closes. */
function containerEnds(text: string): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) open.push(i);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) ends.set(open.pop() ?? 0, i);
    else if (c === QUOTE) i = stringEnd(text, i);
  }
  return ends;
}

/** The first non-space offset at or after `from`. */
function tokenAt(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY;
}

/** Offset → 1-based line and column (in UTF-16 units, as the YAML parser counts them). */
export function linePositions(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, col: offset - starts[low] + 1 };
  };
}

/** The decoded string whose quotes are at `start` and `end`. */
function stringAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes("\\") ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}

/** Index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
