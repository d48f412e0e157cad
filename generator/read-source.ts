/**
 * Reads one spec file into a plain value plus a locator from JSON pointers to line:col.
 *
 * YAML goes through `yaml`, which keeps every node's offset; JSON takes a fast path (JSON.parse, and
 * positions from json-scan.ts computed only when a diagnostic asks). Everything
 * that can go wrong with a file a user hands us (missing, a directory, huge, not UTF-8, malformed,
 * duplicate keys, an alias bomb) becomes a diagnostic; this function never throws.
 */
import { LineCounter, parseAllDocuments } from "yaml";
import type { DiagnosticBag, Locator, Report } from "./diagnostics.ts";
import { childPointer } from "./json-pointer.ts";
import { hasDuplicateJsonKeys, jsonLocator } from "./json-scan.ts";
import { isJsonFile, readStrictJson } from "./read-json.ts";
import { readRegularFile } from "./safe-read.ts";
import type { SourceDoc } from "./source-doc.ts";
import { parseYamlInChunks } from "./yaml-chunks.ts";
import { syntaxProblems } from "./yaml-syntax.ts";
import { buildLocator, duplicateKeys, MAX_ALIAS_COUNT, toTree } from "./yaml-tree.ts";

export type { SourceDoc } from "./source-doc.ts";
export { MAX_ALIAS_COUNT, yamlLocator } from "./yaml-tree.ts";

export type ReadOptions = { maxBytes?: number };

export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export function readSource(file: string, bag: DiagnosticBag, options: ReadOptions = {}): SourceDoc | undefined {
  const atStart = bag.reporter(file, () => ({ line: 1, col: 1 }));
  const bytes = readBytes(file, options.maxBytes ?? DEFAULT_MAX_BYTES, atStart);
  if (!bytes) return undefined;
  return parseSource(file, bytes, bag, options);
}

/**
 * The bytes of a spec, or of a file one of its `$ref`s reads (then `anyValue`: a list or a scalar is
 * fine there), parsed with every guard above: UTF-8, entry count, alias limit, depth.
 */
export function parseSource(
  file: string,
  bytes: Buffer,
  bag: DiagnosticBag,
  options: ReadOptions & { anyValue?: boolean } = {},
): SourceDoc | undefined {
  const atStart = bag.reporter(file, () => ({ line: 1, col: 1 }));
  const text = decodeUtf8(bytes, file, bag);
  if (text === undefined) return undefined;
  // The parser keeps every node with its position: ~80 bytes of heap per byte of a dense document, and
  // minutes for one with 100,000 operations. Count entries first, so such a file is refused at once
  // instead of exhausting memory. The limit grows with --max-size, the one knob for big input.
  const maxEntries = Math.max(1, (options.maxBytes ?? DEFAULT_MAX_BYTES) / DEFAULT_MAX_BYTES) * MAX_ENTRIES;
  const entries = countEntries(text);
  if (entries > maxEntries) {
    atStart(
      "FILE_TOO_LARGE",
      "",
      `'${file}' holds about ${entries} key/value pairs; the limit is ${maxEntries} (raise --max-size to raise it)`,
    );
    return undefined;
  }
  const anyValue = options.anyValue === true;
  // Large specs are read in pieces (yaml-chunks.ts); a file a $ref reads may be any value, so it is read whole.
  const doc = isJsonFile(file)
    ? readStrictJson(file, text, bag, anyValue)
    : (parseJson(file, text, bag) ??
      (anyValue ? undefined : parseInChunks(file, text, bag)) ??
      parseText(file, text, bag, anyValue));
  const deep = doc && tooDeep(doc.value);
  if (deep === undefined) return doc && { ...doc, size: bytes.length };
  doc?.report(
    "YAML_SYNTAX",
    deep,
    `the document nests more than ${MAX_DEPTH} levels deep, more than any real spec; flatten it, e.g. with $ref`,
  );
  return undefined;
}

/** Every later stage (ajv's meta-schema check first) recurses per level; real specs nest a few dozen deep. */
const MAX_DEPTH = 256;

/** The pointer of the first value nested deeper than MAX_DEPTH, found without recursion. */
function tooDeep(root: unknown): string | undefined {
  type Entry = { node: object; depth: number; parent?: Entry; key: string };
  const stack: Entry[] = typeof root === "object" && root !== null ? [{ node: root, depth: 0, key: "" }] : [];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.depth > MAX_DEPTH) {
      const keys: string[] = [];
      for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.unshift(e.key);
      return keys.reduce(childPointer, "");
    }
    for (const key in entry.node) {
      const child = (entry.node as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object")
        stack.push({ node: child, depth: entry.depth + 1, parent: entry, key });
    }
  }
  return undefined;
}

/**
 * JSON (every large OpenAPI document is JSON) through JSON.parse, 15× faster than the positioned YAML
 * parse, with the positions built on first use: only a diagnostic needs them. A text that is not
 * plain, duplicate-free JSON returns undefined and takes the YAML path, which reports its faults.
 */
function parseJson(file: string, text: string, bag: DiagnosticBag): SourceDoc | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (hasDuplicateJsonKeys(text)) return undefined;
  let positioned: Locator | undefined;
  const locate: Locator = (pointer, target) => {
    positioned ??= jsonLocator(text);
    return positioned(pointer, target);
  };
  return { file, value, locate, report: bag.reporter(file, locate) };
}

/** A large block-style YAML file, a piece at a time (yaml-chunks.ts); undefined means "use parseText". */
function parseInChunks(file: string, text: string, bag: DiagnosticBag): SourceDoc | undefined {
  const parsed = parseYamlInChunks(text);
  return parsed && { file, value: parsed.value, locate: parsed.locate, report: bag.reporter(file, parsed.locate) };
}

/** Mapping entries in the densest real specs we know (GitHub's REST API: ~240,000), with room to spare. */
const MAX_ENTRIES = 1_000_000;

/** An upper bound on the key/value pairs of a YAML or JSON text: every pair has a ':' (strings may add more). */
function countEntries(text: string): number {
  let count = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) count++;
  return count;
}

function readBytes(file: string, maxBytes: number, report: Report): Buffer | undefined {
  const read = readRegularFile(file, maxBytes);
  if (read.ok) return read.bytes;
  if (read.reason === "missing") report("FILE_NOT_FOUND", "", `no such file: '${file}'`);
  else if (read.reason === "directory") report("FILE_IS_DIRECTORY", "", `'${file}' is a directory, not a spec file`);
  else if (read.reason === "not-regular")
    report("FILE_NOT_REGULAR", "", `'${file}' is ${read.detail}, not a spec file`);
  else if (read.reason === "too-large") {
    const size = read.size === undefined ? "larger than that" : `${mebibytes(read.size)} MiB`;
    report("FILE_TOO_LARGE", "", `'${file}' is ${size}; the limit is ${mebibytes(maxBytes)} MiB`);
  } else report("FILE_UNREADABLE", "", `cannot read '${file}' (${read.detail})`);
  return undefined;
}

function mebibytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function decodeUtf8(bytes: Buffer, file: string, bag: DiagnosticBag): string | undefined {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, offset).toString("utf8");
    const lines = before.split("\n");
    const position = { line: lines.length, col: (lines.at(-1)?.length ?? 0) + 1 };
    const byte = bytes[offset]?.toString(16).padStart(2, "0");
    bag.reporter(file, () => position)("FILE_NOT_UTF8", "", `invalid UTF-8 byte 0x${byte} at byte offset ${offset}`);
    return undefined;
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    const chunk = bytes.subarray(i, i + length);
    if (chunk.length < length) return i;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(chunk);
    } catch {
      return i;
    }
    i += length;
  }
  return bytes.length;
}

function parseText(file: string, text: string, bag: DiagnosticBag, anyValue = false): SourceDoc | undefined {
  const lineCounter = new LineCounter();
  // uniqueKeys: false because yaml checks each key against every earlier key of its map (quadratic:
  // minutes for an OpenAPI document with 100,000 paths); duplicateKeys() does it with a Set instead.
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true });
  const position = (offset: number) => lineCounter.linePos(Math.min(offset, text.length));
  const list = Array.isArray(docs) ? docs : [];
  const doc = list[0];
  if (!doc || doc.contents === null) {
    bag.reporter(file, () => ({ line: 1, col: 1 }))("FILE_EMPTY", "", `'${file}' holds no document`);
    return undefined;
  }
  const locate = buildLocator(doc.contents, position);
  const report = bag.reporter(file, locate);

  let failed = false;
  if (list.length > 1) {
    const second = list[1].range[0];
    bag.reporter(file, () => position(second))(
      "YAML_MULTIPLE_DOCUMENTS",
      "",
      "the file holds more than one YAML document",
    );
    failed = true;
  }
  for (const error of doc.errors) {
    if (error.code !== "DUPLICATE_KEY") continue;
    bag.reporter(file, () => position(error.pos[0]))(
      "YAML_DUPLICATE_KEY",
      "",
      `duplicate key '${text.slice(error.pos[0], error.pos[1]).trim()}'`,
    );
    failed = true;
  }
  // One mistake makes the parser report dozens of echoes: yaml-syntax.ts keeps the real ones.
  const syntax = doc.errors.filter((error) => error.code !== "DUPLICATE_KEY");
  for (const problem of syntaxProblems(text, syntax, syntaxMessage)) {
    const hint = problem.hint ? { hint: problem.hint } : {};
    bag.reporter(file, () => position(problem.offset))("YAML_SYNTAX", "", problem.message, hint);
    failed = true;
  }
  for (const key of duplicateKeys(doc.contents)) {
    bag.reporter(file, () => position(key.offset))("YAML_DUPLICATE_KEY", "", `duplicate key '${key.name}'`);
    failed = true;
  }
  if (failed) return undefined;

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = /alias/i.test(message) ? "YAML_ALIAS_LIMIT" : "YAML_SYNTAX";
    report(
      code,
      "",
      code === "YAML_ALIAS_LIMIT" ? `aliases expand beyond ${MAX_ALIAS_COUNT} nodes` : syntaxMessage(message),
    );
    return undefined;
  }
  // Aliases make toJS share one object between places, or contain itself (`a: &x { b: *x }`). Every later
  // stage expects a tree, so shared nodes are copied (bounded by MAX_ALIAS_COUNT) and cycles refused.
  if (text.includes("*")) {
    const tree = toTree(value);
    if (!tree.ok) {
      report(
        "YAML_ALIAS_LIMIT",
        tree.pointer,
        "an alias refers to a node that contains it, so the value is infinitely deep",
      );
      return undefined;
    }
    value = tree.value;
  }
  if (!anyValue && (value === null || typeof value !== "object" || Array.isArray(value))) {
    const found = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    report("SPEC_NOT_MAPPING", "", `the top level is ${found}, not a mapping`);
    return undefined;
  }
  return { file, value, locate, report };
}

/** The parser recurses per nesting level; a document nested ~1,000 deep overflows the stack. Say so plainly. */
function syntaxMessage(message: string): string {
  if (/Maximum call stack size exceeded/.test(message)) {
    return "the document nests too deeply to be read (hundreds of levels); flatten it, e.g. with $ref";
  }
  return firstLine(message);
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}
