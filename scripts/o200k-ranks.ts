/**
 * Writes runtime/features/budget/o200k-ranks.ts: the o200k_base vocabulary the response budget counts
 * tokens with, read from gpt-tokenizer (mcpgen's own dependency) and packed small, so a generated package
 * counts exactly as gpt-tokenizer does without installing its 30 MB (issue 28 §4).
 *
 * Packing: every token's byte length (one byte each: none is over 128), then every token's bytes, in rank
 * order; brotli (node:zlib, so the package needs no library to unpack it), then base64 in one string
 * literal. 1.6 MB of tokens become 1.06 MB of source. Run `npx tsx scripts/o200k-ranks.ts` after
 * upgrading gpt-tokenizer; test/runtime/features/budget/o200k.test.ts compares the counts on real answers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";
import ranks from "gpt-tokenizer/bpeRanks/o200k_base";

const OUT = new URL("../runtime/features/budget/o200k-ranks.ts", import.meta.url);
const LICENSE = new URL("../node_modules/gpt-tokenizer/LICENSE", import.meta.url);

/** The tokens' bytes by rank (gpt-tokenizer keeps UTF-8 tokens as strings, the others as byte arrays). */
export function tokenBytes(table: ReadonlyArray<string | number[]>): Buffer[] {
  return Array.from(table, (token, rank) => {
    if (token === undefined) throw new Error(`o200k_base has no token of rank ${rank}`);
    const bytes = typeof token === "string" ? Buffer.from(token, "utf8") : Buffer.from(token);
    if (bytes.length === 0 || bytes.length > 255) throw new Error(`token ${rank} is ${bytes.length} bytes`);
    return bytes;
  });
}

export function packRanks(tokens: Buffer[]): string {
  const raw = Buffer.concat([Buffer.from(tokens.map((token) => token.length)), ...tokens]);
  const packed = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  return packed.toString("base64");
}

function main(): void {
  const tokens = tokenBytes(ranks as ReadonlyArray<string | number[]>);
  const license = readFileSync(LICENSE, "utf8").trim().split("\n");
  const source = [
    "// o200k_base, the vocabulary of OpenAI's tiktoken, as gpt-tokenizer 4.0.0 ships it, packed by",
    "// scripts/o200k-ranks.ts (do not edit: run it again). Every token's byte length (one byte each), then",
    "// every token's bytes, in rank order; brotli; base64. o200k.ts unpacks it.",
    "//",
    "// tiktoken: MIT License, Copyright (c) 2022 OpenAI, Shantanu Jain. gpt-tokenizer's license:",
    "//",
    ...license.map((line) => `//${line === "" ? "" : ` ${line}`}`),
    "",
    "/** How many tokens (ranks 0 to this minus one); special tokens are not among them. */",
    `export const O200K_TOKENS = ${tokens.length};`,
    "",
    `export const O200K_RANKS = "${packRanks(tokens)}";`,
    "",
  ].join("\n");
  writeFileSync(OUT, source);
  console.log(`wrote ${OUT.pathname}: ${tokens.length} tokens, ${source.length} bytes`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
