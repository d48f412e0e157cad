// Responses within a budget (--max-response-tokens, default 25,000 tokens, Claude Code's figure): a tool
// result over it is cut at a boundary a reader can trust (json-cut.ts) and ends with a note, in a text
// block and in `_meta["dev.mcpgen/response"]`, saying how much was left out and which arguments fetch the
// rest (pagination-hint.ts). `_fields` (the core's field-select.ts) is applied before.
//
// Tokens are counted (token-counter.ts) only for a text longer than the budget in UTF-8 bytes: a text of
// n bytes has at most n tokens, so small answers never load the vocabulary and start-up does not pay for it.
//
// structuredContent stays consistent with the outputSchema: the generator serves http tools an
// outputSchema that allows partial answers (generator/normalize/fields-argument.ts: nothing required,
// no minimum counts), and a cut answer is still the same JSON shape, only shorter.

import type { UpstreamCall } from "../../package/feature.ts";
import { RESPONSE_META } from "../../package/field-select.ts";
import type { ContentBlock, JsonObject } from "../../protocol/types.ts";
import type { ToolHandlerResult } from "../../server/types.ts";
import { cutJson, cutLines } from "./json-cut.ts";
import { nextPage } from "./pagination-hint.ts";
import { tokenCounter } from "./token-counter.ts";

/** Tokens kept free for the note when an answer is cut. */
const NOTE_TOKENS = 150;

/** What the budget knows about an http tool's call: the core's UpstreamCall and the budget. */
export type BudgetedCall = UpstreamCall & { maxTokens: number };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const budgetNote = (max: number) => `over this server's budget of ${max} tokens (--max-response-tokens)`;

/**
 * An http tool's result (its `_fields` already applied) cut to the budget at whole items of its main list.
 * `answer.json`: the answer's JSON as the result's text holds it.
 */
export async function fitUpstreamResult(
  answer: { result: ToolHandlerResult; json?: unknown; link?: string },
  call: BudgetedCall,
): Promise<ToolHandlerResult> {
  const { result } = answer;
  if (result.isError || answer.json === undefined) return fitHandlerResult(result, call.maxTokens);
  const max = call.maxTokens;
  // A JSON answer is one text block (upstream/response.ts; compact JSON after `_fields`).
  const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
  if (Buffer.byteLength(text) <= max) return result;
  const tokens = await tokenCounter();
  if (tokens.within(text, max)) return result;
  const cut = cutJson(answer.json, max - NOTE_TOKENS, tokens);
  if (!cut) return tooLarge(answer.json, max, call.offersFields);
  const { value } = cut;
  let meta: JsonObject | undefined;
  const notes: string[] = [];
  if (cut.kept < cut.total) {
    const list = cut.path.length > 0 ? ` of "${cut.path.join(".")}"` : "";
    const props = call.inputSchema.properties as Record<string, unknown> | undefined;
    const next = nextPage(props, call.args, { ...cut, answer: value }, answer.link);
    meta = {
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
  const { structuredContent: _whole, ...rest } = result;
  const partial: ToolHandlerResult = {
    ...rest,
    content: [{ type: "text", text: cut.text }, ...notes.map((note): ContentBlock => ({ type: "text", text: note }))],
    ...(isObject(value) ? { structuredContent: value } : {}),
    // Compact JSON that fits once its indentation is gone is no partial answer: nothing to say then.
    ...(meta ? { _meta: { ...result._meta, [RESPONSE_META]: { ...partOf(result), cut: meta } } } : {}),
  };
  if (call.validateOutput && isObject(value) && !call.validateOutput(value)) {
    // A partial answer the served outputSchema does not allow (rare: see fields-argument.ts) cannot be
    // structuredContent; an error result still carries it, so the model sees the data and why.
    const why = "The selected or shortened answer does not match this tool's outputSchema; it follows as text.";
    const { structuredContent: _dropped, ...shown } = partial;
    return { ...shown, isError: true, content: [{ type: "text", text: why }, ...(partial.content ?? [])] };
  }
  return partial;
}

/** What the result says already of being partial (`_fields`), for the cut to add to. */
function partOf(result: ToolHandlerResult): JsonObject {
  const said = result._meta?.[RESPONSE_META];
  return said !== null && typeof said === "object" && !Array.isArray(said) ? (said as JsonObject) : {};
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
