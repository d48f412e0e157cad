// Exact o200k_base token counts without a tokenizer library (issue 28 §4: gpt-tokenizer installs 30 MB into
// every package; this file and its 1 MB of packed vocabulary, o200k-ranks.ts, count the same). tiktoken's
// algorithm: the text is split by o200k's pattern, and each piece that is not a token whole is merged byte
// pair by byte pair, lowest rank first (leftmost on ties). A test holds the counts equal to
// gpt-tokenizer's on GitHub's API answers and on non-ASCII text. Special-token text counts as plain text.

import { brotliDecompressSync } from "node:zlib";

// o200k's split pattern as gpt-tokenizer writes it for JavaScript (its encodingParams/constants.ts, MIT).
const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?";
const SPLIT = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join("|"),
  "gu",
);

const NON_ASCII = /[\u0080-\uffff]/;

/** A text's UTF-8 bytes as a string of char codes 0-255: ASCII is its own key, and slices are cheap. */
const bytesOf = (text: string) => (NON_ASCII.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text);

/** The rank of each token, keyed by its bytes (as bytesOf gives them). */
type Ranks = Map<string, number>;

/** Counting and splitting text into o200k tokens. */
export type O200k = {
  /** How many tokens `text` is; once over `limit`, some number over it (counting stops there). */
  count(text: string, limit?: number): number;
  /** The tokens of `text`, as the byte length of each; stops once there are more than `limit`. */
  tokens(text: string, limit?: number): number[];
};

let loading: Promise<O200k> | undefined;

/** The encoder, its vocabulary imported and unpacked on first need: a server that never counts never parses 1 MB. */
export function o200k(): Promise<O200k> {
  loading ??= import("./o200k-ranks.ts").then(({ O200K_RANKS, O200K_TOKENS }) => {
    const table = unpack(O200K_RANKS, O200K_TOKENS);
    return { count: (text, limit) => count(table, text, limit), tokens: (text, limit) => tokens(table, text, limit) };
  });
  return loading;
}

function unpack(packed: string, size: number): Ranks {
  const data = brotliDecompressSync(Buffer.from(packed, "base64"));
  const bytes = data.toString("latin1", size);
  const table: Ranks = new Map();
  for (let rank = 0, at = 0; rank < size; rank++) {
    const end = at + data[rank];
    table.set(bytes.slice(at, end), rank);
    at = end;
  }
  return table;
}

/** Merged pieces by their bytes, as token byte lengths: JSON answers repeat their keys and values. */
const merged = new Map<string, number[]>();
/** Bytes of pieces the cache holds at most (cleared when full: an upstream's distinct long words cannot grow it). */
const MERGED_BYTES = 1 << 20;
let mergedBytes = 0;

/** The byte lengths of the tokens `piece` (bytes, not a token itself) merges into. */
function merge(table: Ranks, piece: string): number[] {
  const known = merged.get(piece);
  if (known) return known;
  // starts[i]: where part i begins (the last entry is the end); pairs[i]: the rank of parts i and i+1 joined.
  const starts = Array.from({ length: piece.length + 1 }, (_, i) => i);
  const rankAt = (i: number) =>
    i + 2 < starts.length ? (table.get(piece.slice(starts[i], starts[i + 2])) ?? Infinity) : Infinity;
  const pairs = starts.map((_, i) => rankAt(i));
  for (;;) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < pairs.length - 1; i++) {
      if (pairs[i] < lowest) {
        lowest = pairs[i];
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    pairs.splice(at + 1, 1);
    pairs[at] = rankAt(at);
    if (at > 0) pairs[at - 1] = rankAt(at - 1);
  }
  const lengths = starts.slice(1).map((end, i) => end - starts[i]);
  if (mergedBytes + piece.length > MERGED_BYTES) {
    merged.clear();
    mergedBytes = 0;
  }
  merged.set(piece, lengths);
  mergedBytes += piece.length;
  return lengths;
}

function tokens(table: Ranks, text: string, limit = Infinity): number[] {
  const lengths: number[] = [];
  for (const [match] of text.matchAll(SPLIT)) {
    const piece = bytesOf(match);
    if (table.has(piece)) lengths.push(piece.length);
    else lengths.push(...merge(table, piece));
    if (lengths.length > limit) break;
  }
  return lengths;
}

function count(table: Ranks, text: string, limit = Infinity): number {
  let total = 0;
  for (const [match] of text.matchAll(SPLIT)) {
    const piece = bytesOf(match);
    total += table.has(piece) ? 1 : merge(table, piece).length;
    if (total > limit) break;
  }
  return total;
}
