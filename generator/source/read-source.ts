/**
 * Reads one spec file into a plain value plus a locator from JSON pointers to line:col.
 *
 * YAML goes through `yaml` (parse-yaml.ts), which keeps every node's offset; JSON takes a fast path (JSON.parse, and
 * positions from json-scan.ts computed only when a diagnostic asks). Everything
 * that can go wrong with a file a user hands us (missing, a directory, huge, not UTF-8, malformed,
 * duplicate keys, an alias bomb) becomes a diagnostic; this function never throws.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { decodeUtf8 } from "./decode.ts";
import { hasDuplicateJsonKeys } from "./json-scan.ts";
import { countEntries, DEFAULT_MAX_BYTES, MAX_DEPTH, MAX_ENTRIES, readBytes, tooDeep } from "./limits.ts";
import { parseText } from "./parse-yaml.ts";
import { isJsonFile, readStrictJson, releasableLocator } from "./read-json.ts";
import type { SourceDoc } from "./source-doc.ts";
import { parseYamlInChunks } from "./yaml-chunks.ts";

export { DEFAULT_MAX_BYTES } from "./limits.ts";
export type { SourceDoc } from "./source-doc.ts";

export type ReadOptions = { maxBytes?: number };

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
    ? readStrictJson(file, text, bytes, bag, anyValue)
    : (parseJson(file, text, bytes, bag) ??
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

/**
 * JSON (every large OpenAPI document is JSON) through JSON.parse, 15× faster than the positioned YAML
 * parse, with the positions built on first use: only a diagnostic needs them. A text that is not
 * plain, duplicate-free JSON returns undefined and takes the YAML path, which reports its faults.
 */
function parseJson(file: string, text: string, bytes: Buffer, bag: DiagnosticBag): SourceDoc | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (hasDuplicateJsonKeys(text)) return undefined;
  const { locate, release } = releasableLocator(file, text, bytes);
  return { file, value, locate, report: bag.reporter(file, locate), release };
}

/** A large block-style YAML file, a piece at a time (yaml-chunks.ts); undefined means "use parseText". */
function parseInChunks(file: string, text: string, bag: DiagnosticBag): SourceDoc | undefined {
  const parsed = parseYamlInChunks(text);
  return parsed && { file, value: parsed.value, locate: parsed.locate, report: bag.reporter(file, parsed.locate) };
}
