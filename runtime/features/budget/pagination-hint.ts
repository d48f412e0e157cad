// Which arguments fetch the rest of a cut answer: read from the tool's inputSchema (page/per_page,
// offset/limit, starting_after, cursor) and the upstream's Link header (rel="next"). Where the operation
// allows it, the arguments continue right after the last item shown, so the items the cut left out are
// not lost; where it does not (a cursor, a Link URL), the hint says so.
import { setOwn } from "../../protocol/codec.ts";

/** Arguments to pass, and a sentence saying what they do. */
export type NextPage = { arguments: Record<string, string | number>; text: string };

export type CutFacts = {
  /** Items shown, of the `total` the upstream returned in this answer. */
  kept: number;
  total: number;
  /** The last item shown. */
  last?: unknown;
  /** The answer (cut), to find a next-cursor field in. */
  answer: unknown;
};

const own = (record: Record<string, unknown> | undefined, key: string) =>
  record !== undefined && Object.hasOwn(record, key);

const whole = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isSafeInteger(value) ? value : fallback;

const shown = (args: Record<string, string | number>) =>
  Object.entries(args)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(", ");

/** `props`: the tool's inputSchema `properties`. */
export function nextPage(
  props: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
  cut: CutFacts,
  link?: string,
): NextPage | undefined {
  const rest = (next: Record<string, string | number>, what: string): NextPage => ({
    arguments: next,
    text: `call again with ${shown(next)} ${what}`,
  });
  const lastId = (cut.last as { id?: unknown } | undefined)?.id;
  if (own(props, "starting_after") && (typeof lastId === "string" || typeof lastId === "number")) {
    return rest({ starting_after: lastId }, "(the id of the last item shown) for the items after it");
  }
  if (own(props, "offset")) {
    const next = { offset: whole(args.offset, 0) + cut.kept };
    return rest(
      own(props, "limit") ? { ...next, limit: Math.max(1, cut.kept) } : next,
      "for the items after the last one shown",
    );
  }
  if (own(props, "page") && own(props, "per_page")) {
    // Items before the first one not shown; the largest page size <= kept that divides it lands on it exactly.
    const before = (whole(args.page, 1) - 1) * whole(args.per_page, cut.total) + cut.kept;
    let size = Math.max(1, cut.kept);
    while (before % size !== 0) size--;
    return rest({ per_page: size, page: before / size + 1 }, "for the items after the last one shown");
  }
  const linked = linkNext(link, props);
  const skipped = `; the ${cut.total - cut.kept} items left out of this answer are not in it (select fewer fields with _fields to see them)`;
  if (own(props, "cursor")) {
    const cursor = nextCursor(cut.answer);
    if (cursor !== undefined) return rest({ cursor }, `for the next page${skipped}`);
  }
  if (linked) return rest(linked, `for the upstream's next page${skipped}`);
  if (own(props, "page")) return rest({ page: whole(args.page, 1) + 1 }, `for the next page${skipped}`);
  return undefined;
}

/** The query of the Link header's rel="next" URL, as the tool's arguments it sets. */
function linkNext(
  link: string | undefined,
  props: Record<string, unknown> | undefined,
): Record<string, string | number> | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match || !/;\s*rel\s*=\s*"?(?:[^"]*\s)?next(?:\s[^"]*)?"?\s*(;|$)/i.test(match[2])) continue;
    if (!URL.canParse(match[1], "http://upstream.invalid/")) return undefined;
    const query = new URL(match[1], "http://upstream.invalid/").searchParams;
    const next: Record<string, string | number> = {};
    for (const [name, value] of query) {
      // Only the tool's own arguments: anything else (a credential in the query) is never shown.
      if (!own(props, name)) continue;
      setOwn(next, name, /^\d{1,15}$/.test(value) ? Number(value) : value);
    }
    return Object.keys(next).length > 0 ? next : undefined;
  }
  return undefined;
}

/** A next-cursor field of the answer (`next_cursor`, `nextCursor`, `response_metadata.next_cursor`). */
function nextCursor(answer: unknown, depth = 0): string | undefined {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer) || depth > 2) return undefined;
  for (const [key, value] of Object.entries(answer)) {
    if (/^next_?cursor$/i.test(key) && typeof value === "string" && value !== "") return value;
  }
  for (const value of Object.values(answer)) {
    const found = nextCursor(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
