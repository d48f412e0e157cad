/**
 * A `.json` spec is strict JSON (docs/command-line.md): JSON.parse, and when it refuses, the exact fault at
 * line:col (JSON_SYNTAX). Never YAML, which would accept trailing commas, single quotes, comments and
 * plain YAML saved as .json, and then misreport what it made of them.
 */
import type { DiagnosticBag, Locator } from "../diagnostics/diagnostic.ts";
import { sha256 } from "../hash.ts";
import { withoutBom } from "./decode.ts";
import { firstDuplicateJsonKey, jsonLocator, linePositions } from "./json-scan.ts";
import { jsonSyntaxFault } from "./json-syntax.ts";
import { readRegularFile } from "./safe-read.ts";
import type { SourceDoc } from "./source-doc.ts";

export function isJsonFile(file: string): boolean {
  return /\.json$/i.test(file);
}

/** `anyValue`: the file is one a `$ref` reads, whose top level may be a list or a scalar. `bytes`: what `text` was decoded from. */
export function readStrictJson(
  file: string,
  text: string,
  bytes: Buffer,
  bag: DiagnosticBag,
  anyValue = false,
): SourceDoc | undefined {
  const at = (offset: number) => {
    const position = linePositions(text)(offset);
    return bag.reporter(file, () => position);
  };
  if (text.trim() === "") {
    at(0)("FILE_EMPTY", "", `'${file}' holds no document`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const fault = jsonSyntaxFault(text) ?? { offset: 0, message: (error as Error).message };
    at(fault.offset)("JSON_SYNTAX", "", fault.message);
    return undefined;
  }
  const duplicate = firstDuplicateJsonKey(text);
  if (duplicate) {
    at(duplicate.offset)("YAML_DUPLICATE_KEY", "", `duplicate key '${duplicate.name}'`);
    return undefined;
  }
  if (!anyValue && (value === null || typeof value !== "object" || Array.isArray(value))) {
    const found = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    at(0)("SPEC_NOT_MAPPING", "", `the top level is ${found}, not an object`);
    return undefined;
  }
  const { locate, release } = releasableLocator(file, text, bytes);
  return { file, value, locate, report: bag.reporter(file, locate), release };
}

/**
 * A JSON text's locator, its positions built on the first question. The text is held while questions may
 * come often (the rules); once released (SourceDoc), so are the positions and the bytes, and a later
 * question reads the file again: if it is still what was read (its SHA-256), the positions are built
 * again from it; if it changed since, a position cannot be trusted, and the diagnostic keeps its pointer
 * at 1:1. A function of its own, so that no other closure's scope keeps the text alive.
 */
export function releasableLocator(file: string, text: string, bytes: Buffer): { locate: Locator; release: () => void } {
  let held: string | undefined = text;
  let kept: Buffer | undefined = bytes;
  let digest: Digest | undefined;
  let positioned: Locator | undefined;
  const locate: Locator = (pointer, target) => {
    held ??= readAgain(file, digest);
    if (held === undefined) return { line: 1, col: 1 };
    positioned ??= jsonLocator(held);
    return positioned(pointer, target);
  };
  const release = () => {
    digest ??= kept && { sha256: sha256(kept), size: kept.length };
    held = undefined;
    kept = undefined;
    positioned = undefined;
  };
  return { locate, release };
}

/**
 * The file's text as decodeUtf8 made it, if its bytes are still those it had. Read as the spec was
 * (safe-read.ts: a regular file, no larger than it was), so a file replaced by a pipe never blocks.
 */
function readAgain(file: string, digest: Digest | undefined): string | undefined {
  if (digest === undefined) return undefined;
  const read = readRegularFile(file, digest.size);
  if (!read.ok || sha256(read.bytes) !== digest.sha256) return undefined;
  return withoutBom(read.bytes.toString("utf8"));
}

type Digest = { sha256: string; size: number };
