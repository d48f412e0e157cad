/** Decoding a file's bytes: strict UTF-8 (a stray byte is reported at its line and column), BOM dropped. */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";

export function decodeUtf8(bytes: Buffer, file: string, bag: DiagnosticBag): string | undefined {
  try {
    return withoutBom(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
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

/** The text without its byte-order mark, as every reader of a spec takes it. */
export function withoutBom(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
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
