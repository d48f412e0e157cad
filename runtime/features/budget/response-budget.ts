// Responses within a budget (--max-response-tokens, default 25,000 tokens, Claude Code's figure): a tool
// result over it is cut at a boundary a reader can trust (json-cut.ts) and ends with a note, in a text
// block and in `_meta["dev.mcpgen/response"]`, saying how much was left out and which arguments fetch the
// rest (pagination-hint.ts). `_fields` (field-select.ts) is applied first.
//
// The tokenizer (gpt-tokenizer, o200k) is loaded only for a text longer than the budget in UTF-8 bytes:
// a text of n bytes has at most n tokens, so small answers never load it and start-up does not pay for it.
//
// structuredContent stays consistent with the outputSchema: the generator serves http tools an
// outputSchema that allows partial answers (generator/normalize/fields-argument.ts: nothing required,
// no minimum counts), and a cut or selected answer is still the same JSON shape, only shorter.

import type { ContentBlock, JsonObject, Validator } from "../protocol/types.ts";
import type { ToolHandlerResult } from "../server/types.ts";
import { selectFields } from "./field-select.ts";
import { cutJson, cutLines, type TokenCounter } from "./json-cut.ts";
import { nextPage } from "./pagination-hint.ts";

export const DEFAULT_MAX_RESPONSE_TOKENS = 25_000;
/** The smallest budget: below it the note alone would take much of it. */
export const MIN_RESPONSE_TOKENS = 500;
/** Where results say why they are partial (a `_meta` key with our own prefix, as the spec's key rules ask). */
export const RESPONSE_META = "dev.mcpgen/response";
/** Tokens kept free for the note when an answer is cut. */
const NOTE_TOKENS = 150;

let loading: Promise<TokenCounter> | undefined;

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

/** The o200k token counter, loaded on first need. Special-token text in data is counted as plain text. */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then(
    ({ countTokens, isWithinTokenLimit, encode, decode }) => {
      const plain = { disallowedSpecial: new Set<string>() };
      const count = (text: string) => {
        let total = 0;
        for (const piece of pieces(text)) total += countTokens(piece, plain);
        return total;
      };
      return {
        count,
        within(text, limit) {
          let left = limit;
          for (const piece of pieces(text)) {
            const used = isWithinTokenLimit(piece, left, plain);
            if (used === false) return false;
            left -= used;
          }
          return true;
        },
        prefix(text, limit) {
          let shown = "";
          let left = limit;
          for (const piece of pieces(text)) {
            const used = isWithinTokenLimit(piece, left, plain);
            if (used !== false) {
              shown += piece;
              left -= used;
              continue;
            }
            let start = decode(encode(piece, plain).slice(0, left));
            // A token boundary may fall inside a character: drop what is not the piece's own start.
            while (start !== "" && !piece.startsWith(start)) start = start.slice(0, -1);
            return shown + start;
          }
          return shown;
        },
      };
    },
  );
  return loading;
}

/** What the budget knows about an http tool's call. */
export type UpstreamCall = {
  maxTokens: number;
  inputSchema: { [key: string]: unknown };
  /** The arguments as sent upstream (without `_fields`). */
  args: Record<string, unknown>;
  /** The tool takes `_fields` (a hint may suggest it). */
  offersFields: boolean;
  fields?: string[];
  validateOutput?: Validator;
};

type Meta = { fields?: string[]; cut?: JsonObject; omitted?: JsonObject };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const budgetNote = (max: number) => `over this server's budget of ${max} tokens (--max-response-tokens)`;

/** An http tool's result: `_fields` applied, then cut to the budget at whole items of its main list. */
export async function fitUpstreamResult(
  answer: { result: ToolHandlerResult; json?: unknown; link?: string },
  call: UpstreamCall,
): Promise<ToolHandlerResult> {
  const { result } = answer;
  if (result.isError || answer.json === undefined) {
    const fitted = await fitHandlerResult(result, call.maxTokens);
    if (!call.fields || result.isError) return fitted;
    const note = "(_fields was not applied: the answer is not JSON.)";
    return { ...fitted, content: [...(fitted.content ?? []), { type: "text", text: note }] };
  }
  const max = call.maxTokens;
  const meta: Meta = {};
  let value: unknown = answer.json;
  // A JSON answer is one text block (upstream/response.ts).
  const original = result.content?.[0]?.type === "text" ? result.content[0].text : "";
  let text = original;
  if (call.fields) {
    value = selectFields(value, call.fields);
    text = JSON.stringify(value);
    meta.fields = call.fields;
  }
  const notes: string[] = [];
  if (Buffer.byteLength(text) > max) {
    const tokens = await tokenCounter();
    if (!tokens.within(text, max)) {
      const cut = cutJson(value, max - NOTE_TOKENS, tokens);
      if (!cut) return tooLarge(value, max, call.offersFields);
      ({ value, text } = cut);
      if (cut.kept < cut.total) {
        const list = cut.path.length > 0 ? ` of "${cut.path.join(".")}"` : "";
        const next = nextPage(
          call.inputSchema.properties as Record<string, unknown> | undefined,
          call.args,
          { ...cut, answer: value },
          answer.link,
        );
        meta.cut = {
          maxTokens: max,
          unit: "items",
          ...(cut.path.length > 0 ? { list: cut.path.join(".") } : {}),
          shown: cut.kept,
          total: cut.total,
          ...(next ? { next: next.arguments } : {}),
        };
        notes.push(
          `[cut: the answer is ${budgetNote(max)}; it shows ${cut.kept} of the ${cut.total} items${list}.` +
            (next ? ` For the rest, ${next.text}.` : "") +
            (call.offersFields ? " Fewer fields (_fields) fit more items." : "") +
            "]",
        );
      }
    }
  }
  if (!meta.fields && !meta.cut && text === original) return result;
  const structured = isObject(value) ? { structuredContent: value } : {};
  const partial: ToolHandlerResult = {
    ...result,
    content: [{ type: "text", text }, ...notes.map((note): ContentBlock => ({ type: "text", text: note }))],
    ...structured,
    // Compact JSON that fits once its indentation is gone is no partial answer: nothing to say then.
    ...(meta.fields || meta.cut ? { _meta: { ...result._meta, [RESPONSE_META]: meta as JsonObject } } : {}),
  };
  if (!isObject(value) && "structuredContent" in partial) delete partial.structuredContent;
  if (call.validateOutput && isObject(value) && !call.validateOutput(value)) {
    // A partial answer the served outputSchema does not allow (rare: see fields-argument.ts) cannot be
    // structuredContent; an error result still carries it, so the model sees the data and why.
    const why = "The selected or shortened answer does not match this tool's outputSchema; it follows as text.";
    const { structuredContent: _dropped, ...rest } = partial;
    return { ...rest, isError: true, content: [{ type: "text", text: why }, ...(partial.content ?? [])] };
  }
  return partial;
}

/** No list to shorten (or over the budget with the list empty): the data is left out, the note says why. */
function tooLarge(value: unknown, max: number, offersFields: boolean): ToolHandlerResult {
  const keys = isObject(value) ? Object.keys(value).slice(0, 30) : [];
  const fields = offersFields
    ? ` Ask for fewer fields with _fields${keys.length > 0 ? ` (its top-level fields: ${keys.join(", ")})` : ""}.`
    : "";
  const text = `The answer is ${budgetNote(max)} and has no list that can be shortened to fit, so it is left out.${fields}`;
  return {
    isError: true,
    content: [{ type: "text", text }],
    _meta: { [RESPONSE_META]: { omitted: { maxTokens: max, reason: "no list to shorten" } } },
  };
}

/**
 * Any tool result (a handler's, or an http tool's error or text answer): its text blocks within the
 * budget, in order; a block that does not fit is cut (a JSON text at whole items of its main list, other
 * text at whole lines) and the text blocks after it are left out. Other blocks (images, resources) and
 * structuredContent are passed on as they are: a handler returning large structured data pages it itself.
 */
export async function fitHandlerResult(result: ToolHandlerResult, max: number): Promise<ToolHandlerResult> {
  const blocks = result.content ?? [];
  const texts = blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));
  if (texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) <= max) return result;
  const tokens = await tokenCounter();
  if (tokens.within(texts.join("\n"), max)) return result;
  let left = max - NOTE_TOKENS;
  const content: ContentBlock[] = [];
  const said: string[] = [];
  let cutMeta: JsonObject | undefined;
  let dropped = 0;
  for (const block of blocks) {
    if (block.type !== "text") content.push(block);
    else if (left <= 0) dropped++;
    else {
      if (tokens.within(block.text, left)) {
        content.push(block);
        left -= tokens.count(block.text);
        continue;
      }
      const json = parsed(block.text);
      const cut = json === undefined ? undefined : cutJson(json, left, tokens);
      if (cut) {
        content.push({ ...block, text: cut.text });
        said.push(`it shows ${cut.kept} of the ${cut.total} items of a list`);
        cutMeta = { unit: "items", shown: cut.kept, total: cut.total };
      } else if (json !== undefined) {
        said.push("a JSON text with no list to shorten is left out");
        cutMeta = { unit: "json", shown: 0, total: 1 };
      } else {
        const lines = cutLines(block.text, left, tokens);
        content.push({ ...block, text: lines.text });
        said.push(
          lines.partial
            ? `it shows the start of the first of ${lines.total} lines`
            : `it shows ${lines.kept} of the ${lines.total} lines`,
        );
        cutMeta = { unit: "lines", shown: lines.kept, total: lines.total };
      }
      left = 0;
    }
  }
  if (dropped > 0) said.push(`${dropped} more text blocks are left out`);
  const note = `[cut: the answer is ${budgetNote(max)}; ${said.join("; ")}.]`;
  return {
    ...result,
    content: [...content, { type: "text", text: note }],
    _meta: { ...result._meta, [RESPONSE_META]: { cut: { maxTokens: max, ...cutMeta, droppedBlocks: dropped } } },
  };
}

function parsed(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
