/**
 * The fast path for a large block-style YAML spec (issue 12: a 40 MB spec with 96,669 tools took 116 s
 * and 2.75 GB, nearly all of it the positioned parse of the whole document at once and the locator
 * built from it). Such a file is a mapping of a few top-level keys, one of them a long list. We cut it
 * at its top-level keys and between the items of those lists, parse the pieces one batch at a time
 * (each parse tree is garbage the moment its value is taken) and find positions only when a diagnostic
 * asks, by parsing the one batch it points into again.
 *
 * Anything unusual (a document marker, a directive, a quoted or complex top-level key, a flow-style
 * list, an alias to another piece, any syntax error or duplicate key) makes this return undefined, and
 * the caller parses the whole document as before: that path gives the exact diagnostics.
 */
import { LineCounter, type Node, parseAllDocuments } from "yaml";
import type { Locator } from "../diagnostics/diagnostic.ts";
import { progress } from "../progress.ts";
import { duplicateKeys } from "./duplicate-keys.ts";
import { MAX_ALIAS_COUNT } from "./limits.ts";
import { toTree } from "./parse-yaml.ts";
import { parseFastYaml } from "./yaml-fast.ts";
import { buildLocator } from "./yaml-locator.ts";

/** Below this the whole-document parse takes well under a second: keep the one exact path. */
export const CHUNKED_MIN_BYTES = 1024 * 1024;
const BATCH_BYTES = 64 * 1024;
const TOP_KEY = /^([A-Za-z_$][\w.$-]*)[ \t]*:(?:[ \t]+(#.*)?)?$/;
const TOP_KEY_WITH_VALUE = /^[A-Za-z_$][\w.$-]*[ \t]*:(?:[ \t]|$)/;

/** A slice of the text: a whole top-level entry, or a batch of `count` items of the list under `key`. */
type Piece = {
  key: string;
  keyLine: number;
  start: number;
  end: number;
  line: number;
  first?: number;
  count?: number;
};
type Line = { start: number; end: number; number: number };

export function parseYamlInChunks(text: string): { value: { [key: string]: unknown }; locate: Locator } | undefined {
  if (text.length < CHUNKED_MIN_BYTES) return undefined;
  const lines = splitLines(text);
  const pieces = split(text, lines);
  if (!pieces) return undefined;
  const value: { [key: string]: unknown } = {};
  const items = pieces.reduce((sum, piece) => sum + (piece.count ?? 1), 0);
  let done = 0;
  progress.stage("parsing entries", items);
  for (const piece of pieces) {
    done += piece.count ?? 1;
    progress.advance(done);
    const slice = text.slice(piece.start, piece.end);
    // The plain subset most specs are written in is read ~10× faster; anything else goes through `yaml`.
    const parsed = asParsed(parseFastYaml(slice)) ?? parsePiece(slice);
    if (!parsed) return undefined;
    if (piece.count === undefined) {
      const entry = parsed.value as { [key: string]: unknown } | null;
      if (entry === null || typeof entry !== "object" || Object.keys(entry).length !== 1) return undefined;
      if (Object.hasOwn(value, piece.key)) return undefined; // duplicate top-level key: the full parse reports it
      value[piece.key] = entry[piece.key];
    } else {
      if (!Array.isArray(parsed.value) || parsed.value.length !== piece.count) return undefined;
      if (piece.first === 0) value[piece.key] = [];
      const list = value[piece.key];
      if (!Array.isArray(list) || list.length !== piece.first) return undefined;
      for (const item of parsed.value) list.push(item);
    }
  }
  return { value, locate: lazyLocator(text, pieces) };
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  for (let start = 0, number = 1; start < text.length; number++) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline + 1;
    lines.push({ start, end, number });
    start = end;
  }
  return lines;
}

const isBlank = (line: string) => line.trim() === "" || line.trimStart().startsWith("#");
const indentOf = (line: string) => line.length - line.trimStart().length;

/** Top-level entries, with every long block list among them cut into batches of whole items. */
function split(text: string, lines: Line[]): Piece[] | undefined {
  const entries: Array<{ key: string; keyLine: number; from: number; to: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = text.slice(lines[i].start, lines[i].end).replace(/\r?\n$/, "");
    if (isBlank(line) || /^[ \t]/.test(line)) continue;
    if (/^(---|\.\.\.|%)/.test(line)) return undefined;
    if (line.startsWith("-")) {
      if (entries.length === 0) return undefined;
      continue;
    }
    const key = TOP_KEY_WITH_VALUE.test(line) ? line.slice(0, line.indexOf(":")).trim() : undefined;
    if (key === undefined) return undefined;
    if (entries.length > 0) entries[entries.length - 1].to = i;
    entries.push({ key, keyLine: lines[i].number, from: entries.length === 0 ? 0 : i, to: lines.length });
  }
  if (entries.length === 0) return undefined;
  const pieces: Piece[] = [];
  for (const entry of entries) {
    const batches = entry.to - entry.from > 2 ? listBatches(text, lines, entry) : undefined;
    if (batches) pieces.push(...batches);
    else {
      const start = lines[entry.from].start;
      const end = entry.to < lines.length ? lines[entry.to].start : text.length;
      pieces.push({ key: entry.key, keyLine: entry.keyLine, start, end, line: lines[entry.from].number });
    }
  }
  return pieces;
}

/** The items of `key:` followed by a block list, in batches; undefined when the value is anything else. */
function listBatches(text: string, lines: Line[], entry: { key: string; keyLine: number; from: number; to: number }) {
  const end = entry.to < lines.length ? lines[entry.to].start : text.length;
  if (end - lines[entry.from].start < 2 * BATCH_BYTES) return undefined;
  const head = text.slice(lines[entry.from].start, lines[entry.from].end).replace(/\r?\n$/, "");
  // The key must stand alone on its line (an anchor, tag or flow list after it takes the exact path); it
  // may be preceded by comment lines, which belong to no item.
  let keyLine = entry.from;
  while (isBlank(text.slice(lines[keyLine].start, lines[keyLine].end))) keyLine++;
  if (keyLine !== entry.from && !TOP_KEY.test(text.slice(lines[keyLine].start, lines[keyLine].end).trimEnd()))
    return undefined;
  if (keyLine === entry.from && !TOP_KEY.test(head.trimEnd())) return undefined;
  const itemStarts: number[] = [];
  let indent = -1;
  for (let i = keyLine + 1; i < entry.to; i++) {
    const line = text.slice(lines[i].start, lines[i].end).replace(/\r?\n$/, "");
    if (isBlank(line)) continue;
    const at = indentOf(line);
    if (indent < 0) indent = at;
    const rest = line.slice(at);
    if (at === indent && (rest === "-" || rest.startsWith("- "))) itemStarts.push(i);
    else if (at <= indent || itemStarts.length === 0 || line.includes("\t")) return undefined;
  }
  if (itemStarts.length === 0) return undefined;
  const pieces: Piece[] = [];
  let first = 0;
  for (let k = 0; k < itemStarts.length; ) {
    const start = lines[itemStarts[k]].start;
    let next = k + 1;
    while (next < itemStarts.length && lines[itemStarts[next]].start - start < BATCH_BYTES) next++;
    const stop = next < itemStarts.length ? lines[itemStarts[next]].start : end;
    const line = lines[itemStarts[k]].number;
    pieces.push({ key: entry.key, keyLine: entry.keyLine, start, end: stop, line, first, count: next - k });
    first += next - k;
    k = next;
  }
  return pieces;
}

const asParsed = (value: unknown) => (value === undefined ? undefined : { value });

type Parsed = { value: unknown; contents: Node; lineCounter: LineCounter };

function parsePiece(slice: string): Parsed | undefined {
  const lineCounter = new LineCounter();
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(slice, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true });
  } catch {
    return undefined; // e.g. nesting deep enough to overflow the stack: the whole-file parse says so
  }
  if (!Array.isArray(docs) || docs.length !== 1) return undefined;
  const doc = docs[0];
  if (!doc.contents || doc.errors.length > 0 || duplicateKeys(doc.contents).length > 0) return undefined;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return undefined;
  }
  if (slice.includes("*")) {
    const tree = toTree(value);
    if (!tree.ok) return undefined;
    value = tree.value;
  }
  return { value, contents: doc.contents, lineCounter };
}

/** Positions for a diagnostic: the piece the pointer falls in is parsed again (a few recent ones are kept). */
function lazyLocator(text: string, pieces: Piece[]): Locator {
  const cache = new Map<Piece, Locator>();
  const pieceLocator = (piece: Piece): Locator => {
    let found = cache.get(piece);
    if (!found) {
      const parsed = parsePiece(text.slice(piece.start, piece.end))!;
      const position = (offset: number) => {
        const at = parsed.lineCounter.linePos(Math.min(offset, piece.end - piece.start));
        return { line: at.line + piece.line - 1, col: at.col };
      };
      found = buildLocator(parsed.contents, position);
      if (cache.size >= 8) cache.delete(cache.keys().next().value!);
      cache.set(piece, found);
    }
    return found;
  };
  const unescapeSegment = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");
  return (pointer, target) => {
    const [, first, index, ...rest] = pointer.split("/");
    const key = first === undefined ? undefined : unescapeSegment(first);
    const ofKey = pieces.filter((p) => p.key === key);
    // The document itself (or a key it does not have): where its first key is, as the whole-file locator says.
    if (ofKey.length === 0) return { line: pieces[0].keyLine, col: 1 };
    if (ofKey[0].count === undefined) return pieceLocator(ofKey[0])(pointer || `/${ofKey[0].key}`, target);
    const i = Number(index);
    const piece = ofKey.find((p) => p.first! <= i && i < p.first! + p.count!);
    if (index === undefined || !piece) {
      // The list itself: its key, or its first item.
      return target === "key" ? { line: ofKey[0].keyLine, col: 1 } : pieceLocator(ofKey[0])("");
    }
    return pieceLocator(piece)(["", String(i - piece.first!), ...rest].join("/"), target);
  };
}
