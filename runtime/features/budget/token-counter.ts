// The token counting the budget cuts with (json-cut.ts's TokenCounter), on o200k.ts. The vocabulary is
// loaded on the first need (about 0.15 s), and response-budget.ts counts only a text longer than the
// budget in UTF-8 bytes (a text of n bytes has at most n tokens): small answers never load it.

import type { TokenCounter } from "./json-cut.ts";
import { type O200k, o200k } from "./o200k.ts";

/**
 * Text is tokenized in pieces of about 1,000 characters: BPE time grows with the square of a word's
 * length, and an upstream can send a megabyte without a space (16 KB of one letter take 0.2 s, 1 MB
 * would take minutes). A piece ends after whitespace where it can, never inside a surrogate pair;
 * counted in pieces, a text is at most one token per piece over its count as a whole.
 */
const PIECE = 1000;

function* pieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + PIECE);
    if (end < text.length) {
      const space = text.slice(at + PIECE / 2, end).search(/\s\S*$/);
      if (space >= 0) end = at + PIECE / 2 + space + 1;
      else if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
    }
    yield text.slice(at, end);
    at = end;
  }
}

/** The longest start of `piece` made of at most `limit` of its tokens, ending at a whole character. */
function piecePrefix(encoder: O200k, piece: string, limit: number): string {
  const bytes = encoder
    .tokens(piece, limit)
    .slice(0, limit)
    .reduce((sum, length) => sum + length, 0);
  let start = Buffer.from(piece, "utf8").toString("utf8", 0, bytes);
  // A token boundary may fall inside a character (its bytes decode to U+FFFD): drop what is not the piece's own start.
  while (start !== "" && !piece.startsWith(start)) start = start.slice(0, -1);
  return start;
}

let counter: Promise<TokenCounter> | undefined;

/** The o200k token counter, loaded on first need. Special-token text in data is counted as plain text. */
export function tokenCounter(): Promise<TokenCounter> {
  counter ??= o200k().then((encoder) => ({
    count(text) {
      let total = 0;
      for (const piece of pieces(text)) total += encoder.count(piece);
      return total;
    },
    within(text, limit) {
      let left = limit;
      for (const piece of pieces(text)) {
        left -= encoder.count(piece, left);
        if (left < 0) return false;
      }
      return true;
    },
    prefix(text, limit) {
      let shown = "";
      let left = limit;
      for (const piece of pieces(text)) {
        const used = encoder.count(piece, left);
        if (used > left) return shown + piecePrefix(encoder, piece, left);
        shown += piece;
        left -= used;
      }
      return shown;
    },
  }));
  return counter;
}
