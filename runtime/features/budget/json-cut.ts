// Cutting an answer to a token budget at boundaries a reader can trust: a JSON answer loses whole items
// of its main list (never half a string or half an object), a text answer loses whole lines. Pure: the
// token counting is passed in (token-counter.ts; response-budget.ts counts only answers that may be over).
import { setOwn } from "../../protocol/codec.ts";

/** Token counting, as token-counter.ts makes it from the o200k encoding (o200k.ts). */
export type TokenCounter = {
  count(text: string): number;
  /** Whether `text` is at most `limit` tokens (stops counting at the limit). */
  within(text: string, limit: number): boolean;
  /** The longest start of `text` within `limit` tokens, ending at a whole character. */
  prefix(text: string, limit: number): string;
};

/** A JSON answer with its main list shortened. */
export type JsonCut = {
  value: unknown;
  /** The shortened answer as compact JSON text. */
  text: string;
  /** Where the list is: [] for a top-level array, else the keys leading to it (`["data"]`). */
  path: string[];
  kept: number;
  total: number;
  /** The last item kept (its `id` continues a `starting_after` listing). */
  last?: unknown;
};

export type TextCut = {
  text: string;
  /** Whole lines kept, of `total`; `partial` when not even the first line fitted and only its start is shown. */
  kept: number;
  total: number;
  partial: boolean;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The answer's main list: the top-level array, else the largest array (in JSON characters) reached
 * through objects only (`items`, `data`, `data.children`...); undefined when there is none.
 */
export function mainList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return [];
  let best: { path: string[]; size: number } | undefined;
  const visit = (object: Record<string, unknown>, path: string[]) => {
    for (const [key, child] of Object.entries(object)) {
      if (Array.isArray(child)) {
        const size = JSON.stringify(child).length;
        if (!best || size > best.size) best = { path: [...path, key], size };
      } else if (isObject(child)) visit(child, [...path, key]);
    }
  };
  if (isObject(value)) visit(value, []);
  return best?.path;
}

const at = (value: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);

/** A copy of `value` with the array at `path` replaced (the objects along the way copied, not changed). */
function withList(value: unknown, path: string[], list: unknown[]): unknown {
  if (path.length === 0) return list;
  const copy: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    setOwn(copy, key, key === path[0] ? withList(object[key], path.slice(1), list) : object[key]);
  }
  return copy;
}

/**
 * The answer within `budget` tokens as compact JSON: whole, when it fits so; else with as many leading
 * items of its main list as fit (possibly none: the rest of the answer is kept whole). Undefined when the
 * answer has no list to shorten, or is over the budget even with the list empty.
 */
export function cutJson(value: unknown, budget: number, tokens: TokenCounter): JsonCut | undefined {
  const whole = JSON.stringify(value);
  const path = mainList(value);
  if (path === undefined) return undefined;
  const list = at(value, path) as unknown[];
  if (tokens.within(whole, budget)) return { value, text: whole, path, kept: list.length, total: list.length };
  const envelope = JSON.stringify(withList(value, path, []));
  if (!tokens.within(envelope, budget)) return undefined;
  // Items are counted one by one until the budget is spent: the cost follows the budget, not the answer
  // (`within` first, so a huge item is not counted whole).
  let used = tokens.count(envelope);
  let kept = 0;
  while (kept < list.length) {
    const item = JSON.stringify(list[kept]) ?? "null";
    if (!tokens.within(item, budget - used - 1)) break; // and its comma
    used += tokens.count(item) + 1;
    kept++;
  }
  // Tokens at the joins differ from the sum of the parts (`},{` is often one token): the whole is
  // checked, and a few checks (doubling, then halving) find the most items that fit.
  const shortened = (k: number) => withList(value, path, list.slice(0, k));
  const fits = (k: number) => tokens.within(JSON.stringify(shortened(k)), budget);
  let lo = 0; // fits: the envelope alone is within the budget
  let hi = list.length + 1; // does not fit
  if (fits(kept)) {
    lo = kept;
    let step = 1;
    for (; lo + step <= list.length && fits(lo + step); step *= 2) lo += step;
    hi = Math.min(lo + step, list.length + 1);
  } else hi = kept;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const result = shortened(lo);
  const text = JSON.stringify(result);
  return { value: result, text, path, kept: lo, total: list.length, ...(lo > 0 ? { last: list[lo - 1] } : {}) };
}

/** Text within `budget` tokens: whole lines; only the start of the first line when not even it fits. */
export function cutLines(text: string, budget: number, tokens: TokenCounter): TextCut {
  const lines = text.split("\n");
  if (tokens.within(text, budget)) return { text, kept: lines.length, total: lines.length, partial: false };
  let used = 0;
  let kept = 0;
  while (kept < lines.length) {
    if (!tokens.within(lines[kept], budget - used - 1)) break; // and its line break
    used += tokens.count(lines[kept]) + 1;
    kept++;
  }
  for (; kept > 0; kept--) {
    const shown = lines.slice(0, kept).join("\n");
    if (tokens.within(shown, budget)) return { text: shown, kept, total: lines.length, partial: false };
  }
  return { text: tokens.prefix(lines[0], budget), kept: 0, total: lines.length, partial: true };
}
