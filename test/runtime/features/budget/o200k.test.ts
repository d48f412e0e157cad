/**
 * Issue 28 §4: the response budget counts o200k tokens with its own encoder and packed vocabulary
 * (runtime/features/budget/o200k.ts, o200k-ranks.ts) instead of gpt-tokenizer's 30 MB. The counts must be
 * gpt-tokenizer's exactly: compared on every example answer of GitHub's API description (535, compact and
 * indented) and on text in many scripts; the packed vocabulary is gpt-tokenizer's, token for token.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import ranks from "gpt-tokenizer/bpeRanks/o200k_base";
import { countTokens, encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { o200k } from "../../../../runtime/features/budget/o200k.ts";
import { O200K_RANKS, O200K_TOKENS } from "../../../../runtime/features/budget/o200k-ranks.ts";
import { tokenCounter } from "../../../../runtime/features/budget/token-counter.ts";
import { tokenBytes } from "../../../../scripts/o200k-ranks.ts";
import { ROOT } from "../../../generate/support.ts";

/** Special-token text in data is plain text, as the budget has always counted it. */
const PLAIN = { disallowedSpecial: new Set<string>() };

const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const examples = (): string[] => {
  const spec = JSON.parse(readFileSync(GITHUB, "utf8")) as {
    components: { examples: Record<string, { value?: unknown }> };
  };
  return Object.values(spec.components.examples).flatMap(({ value }) =>
    value === undefined ? [] : [JSON.stringify(value), JSON.stringify(value, null, 2)],
  );
};

const NON_ASCII = [
  "héllo wörld, ça va? Straße, ÆØÅ æøå",
  "東京タワーは高いです。日本語の文章、句読点。",
  "中文分词测试：人工智能正在改变世界。",
  "한국어 텍스트도 세어야 합니다.",
  "مرحبا بالعالم، هذا نص عربي",
  "שלום עולם",
  "Привет, мир! Ёжик в тумане.",
  "नमस्ते दुनिया, यह हिंदी है",
  "สวัสดีชาวโลก",
  "emoji 😀👍🏽 family 👨‍👩‍👧‍👦 flags 🇩🇪🇯🇵 keycap 1️⃣",
  "combining e\u0301 a\u0308 n\u0303 Z\u0351\u0344\u0346",
  "lone surrogates \uD800 and \uDFFF in text",
  "<|endoftext|> and <|im_start|>user<|im_end|> as plain text",
  "I'LL DO IT, they're here, we've gone, it's 'quoted'",
  "numbers 1234567890 3.14159 -42 1e10 0x1F",
  "tabs\tand\r\nwindows lines\n\n\n   spaces   \u00a0nbsp\u2003em-space",
  `${"a".repeat(3000)} ${"é".repeat(700)} ${"語".repeat(500)}`,
  JSON.stringify({ name: "Zoë", city: "Zürich", note: "naïve café – “quotes” — dash…", tags: ["日本", "🎉"] }),
];

describe("o200k counts equal gpt-tokenizer's", () => {
  it("on every GitHub API example answer, compact and indented", async () => {
    const encoder = await o200k();
    const texts = examples();
    expect(texts.length).toBe(2 * 535);
    const differ = texts.filter((text) => encoder.count(text) !== countTokens(text, PLAIN));
    expect(differ.map((text) => text.slice(0, 80))).toEqual([]);
  }, 60_000);

  it("on non-ASCII text, special-token text and long words", async () => {
    const encoder = await o200k();
    for (const text of NON_ASCII) {
      expect(encoder.count(text), text.slice(0, 40)).toBe(countTokens(text, PLAIN));
      const lengths = encoder.tokens(text);
      expect(lengths.length).toBe(encoder.count(text));
      // Each token's bytes, in order, are the text's UTF-8 (a lone surrogate as U+FFFD, as TextEncoder has it).
      expect(lengths.reduce((sum, length) => sum + length, 0)).toBe(new TextEncoder().encode(text).length);
      expect(lengths).toEqual(encode(text, PLAIN).map((token) => tokenLength(token)));
    }
  });

  it("stops counting past a limit, with a count over it", async () => {
    const encoder = await o200k();
    const text = NON_ASCII.join(" ");
    const whole = encoder.count(text);
    expect(encoder.count(text, whole)).toBe(whole);
    expect(encoder.count(text, 10)).toBeGreaterThan(10);
    expect(encoder.count(text, 10)).toBeLessThan(whole);
  });

  it("a prefix within a limit is the text's start through gpt-tokenizer's first tokens, at whole characters", async () => {
    const tokens = await tokenCounter();
    for (const text of NON_ASCII) {
      const bytes = Buffer.from(text, "utf8");
      const lengths = encode(text, PLAIN).map((token) => tokenLength(token));
      for (const limit of [1, 3, 7, 20]) {
        // From the bytes, not gpt-tokenizer's decode: it keeps one streaming decoder for all calls, so a cut
        // inside a character leaks into the next decode (the old prefix came out shorter, or with a U+FFFD).
        const end = lengths.slice(0, limit).reduce((sum, length) => sum + length, 0);
        let want = limit >= lengths.length ? text : bytes.toString("utf8", 0, end);
        while (want !== "" && !text.startsWith(want)) want = want.slice(0, -1);
        // Texts under 1,000 characters are one piece for the counter, as for gpt-tokenizer.
        if (text.length < 1000) expect(tokens.prefix(text, limit), `${text.slice(0, 20)} ${limit}`).toBe(want);
        expect(text.startsWith(tokens.prefix(text, limit))).toBe(true);
        expect(tokens.within(tokens.prefix(text, limit), limit)).toBe(true);
      }
    }
  });
});

/** A token's length in bytes, from gpt-tokenizer's own table. */
function tokenLength(token: number): number {
  const entry = (ranks as ReadonlyArray<string | number[]>)[token];
  return typeof entry === "string" ? Buffer.byteLength(entry) : entry.length;
}

describe("the packed vocabulary", () => {
  it("is gpt-tokenizer's o200k_base table, token for token, in about 1 MB", () => {
    const data = brotliDecompressSync(Buffer.from(O200K_RANKS, "base64"));
    const want = tokenBytes(ranks as ReadonlyArray<string | number[]>);
    expect(O200K_TOKENS).toBe(want.length);
    expect([...data.subarray(0, O200K_TOKENS)]).toEqual(want.map((token) => token.length));
    expect(data.subarray(O200K_TOKENS).equals(Buffer.concat(want))).toBe(true);
    const file = statSync(join(ROOT, "runtime/features/budget/o200k-ranks.ts")).size;
    expect(file).toBeLessThan(1.1 * 1024 * 1024);
  });
});
