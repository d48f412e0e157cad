/**
 * Issue 14 §4: cutting an answer to a token budget (runtime/features/budget/json-cut.ts) with the real o200k
 * tokenizer. A JSON answer loses whole items of its main list, never half a string or object; text loses
 * whole lines. Given/want tables, then the `_fields` selection and the next-page arguments.
 */
import { describe, expect, it } from "vitest";
import { cutJson, cutLines, mainList } from "../../../../runtime/features/budget/json-cut.ts";
import { nextPage } from "../../../../runtime/features/budget/pagination-hint.ts";
import { fitHandlerResult, fitUpstreamResult } from "../../../../runtime/features/budget/response-budget.ts";
import { tokenCounter } from "../../../../runtime/features/budget/token-counter.ts";
import { RESPONSE_META, selectFields, takeFields } from "../../../../runtime/package/field-select.ts";

const issue = (i: number): unknown => ({ id: i, title: `Issue number ${i}`, user: { login: `u${i}` } });
const items = (n: number, make = issue) => Array.from({ length: n }, (_, i) => make(i));

describe("cutJson: whole items of the main list", () => {
  const cases: Array<{
    why: string;
    given: unknown;
    budget: number;
    want: { path: string[]; total: number; kept: "all" | "some" | 0 } | undefined;
  }> = [
    { why: "a top-level array", given: items(500), budget: 300, want: { path: [], total: 500, kept: "some" } },
    {
      why: "an array inside an object (items), the rest kept whole",
      given: { total_count: 500, incomplete_results: false, items: items(500) },
      budget: 300,
      want: { path: ["items"], total: 500, kept: "some" },
    },
    {
      why: "nested: the largest array reached through objects (data.children), not a small one beside it",
      given: { kind: "Listing", tags: ["a", "b"], data: { after: "t3_x", children: items(500) } },
      budget: 300,
      want: { path: ["data", "children"], total: 500, kept: "some" },
    },
    {
      why: "items with unicode (emoji, CJK, combining marks) are kept whole",
      given: items(300, (i) => ({ id: i, name: `😀 東京 e\u0301 ${i}` })),
      budget: 200,
      want: { path: [], total: 300, kept: "some" },
    },
    {
      why: "the first item alone is over the budget: none kept, the envelope stays",
      given: { count: 2, results: [{ text: "word ".repeat(2000) }, { text: "x" }] },
      budget: 100,
      want: { path: ["results"], total: 2, kept: 0 },
    },
    {
      why: "within the budget: nothing cut",
      given: { items: items(3) },
      budget: 1000,
      want: { path: ["items"], total: 3, kept: "all" },
    },
    {
      why: "a single huge string: no list to shorten",
      given: { body: "word ".repeat(5000) },
      budget: 100,
      want: undefined,
    },
    { why: "a top-level string", given: "word ".repeat(5000), budget: 100, want: undefined },
  ];
  for (const { why, given, budget, want } of cases) {
    it(why, async () => {
      const tokens = await tokenCounter();
      const cut = cutJson(given, budget, tokens);
      if (want === undefined) return expect(cut).toBeUndefined();
      expect(cut).toBeDefined();
      if (!cut) return;
      expect({ path: cut.path, total: cut.total }).toEqual({ path: want.path, total: want.total });
      if (want.kept === "all") expect(cut.kept).toBe(want.total);
      else if (want.kept === 0) expect(cut.kept).toBe(0);
      else {
        expect(cut.kept).toBeGreaterThan(0);
        expect(cut.kept).toBeLessThan(want.total);
      }
      expect(tokens.count(cut.text)).toBeLessThanOrEqual(budget);
      // Whole items: the text parses, and the list is the first `kept` items of the original, unchanged.
      expect(JSON.parse(cut.text)).toEqual(cut.value);
      const original = want.path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], given) as unknown[];
      const shown = want.path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], cut.value) as unknown[];
      expect(shown).toEqual(original.slice(0, cut.kept));
      if (cut.kept > 0 && cut.kept < want.total) {
        expect(cut.last).toEqual(original[cut.kept - 1]);
      }
    });
  }

  it("keeps as many items as fit: one more would be over the budget", async () => {
    const tokens = await tokenCounter();
    const list = items(400);
    const cut = cutJson(list, 500, tokens)!;
    expect(tokens.count(JSON.stringify(list.slice(0, cut.kept + 1)))).toBeGreaterThan(500);
  });

  it("mainList: top-level array, the largest array in the object, none", () => {
    expect(mainList([1])).toEqual([]);
    expect(mainList({ a: [1], b: { c: [1, 2, 3, 4] } })).toEqual(["b", "c"]);
    expect(mainList({ a: "x", b: { c: 1 } })).toBeUndefined();
  });
});

describe("cutLines: whole lines of non-JSON text", () => {
  const cases: Array<{ why: string; given: string; budget: number; want: { partial: boolean; whole: boolean } }> = [
    {
      why: "many lines: whole lines kept",
      given: "a line of log output\n".repeat(2000),
      budget: 200,
      want: { partial: false, whole: false },
    },
    { why: "fits: unchanged", given: "one\ntwo\nthree", budget: 200, want: { partial: false, whole: true } },
    {
      why: "one huge line: only its start, ending at a whole character (unicode)",
      given: "😀東京é".repeat(3000),
      budget: 100,
      want: { partial: true, whole: false },
    },
  ];
  for (const { why, given, budget, want } of cases) {
    it(why, async () => {
      const tokens = await tokenCounter();
      const cut = cutLines(given, budget, tokens);
      expect(cut.partial).toBe(want.partial);
      expect(cut.text === given).toBe(want.whole);
      expect(given.startsWith(cut.text)).toBe(true);
      expect(tokens.count(cut.text)).toBeLessThanOrEqual(budget);
      if (!want.partial) expect(cut.text.split("\n").length).toBe(cut.kept);
      if (want.partial) {
        expect(cut.text.length).toBeGreaterThan(0);
        expect(cut.text).not.toMatch(/\uFFFD|[\uD800-\uDBFF]$/);
      }
    });
  }
});

describe("_fields: dotted paths, through arrays", () => {
  const issue = {
    number: 1,
    title: "Bug",
    state: "open",
    user: { login: "octo", id: 9 },
    labels: [{ name: "x", id: 1 }],
  };
  const cases: Array<{ why: string; given: unknown; fields: string[]; want: unknown }> = [
    {
      why: "top-level fields of an object",
      given: issue,
      fields: ["number", "title"],
      want: { number: 1, title: "Bug" },
    },
    { why: "nested", given: issue, fields: ["user.login"], want: { user: { login: "octo" } } },
    {
      why: "through a list at the root",
      given: [issue, issue],
      fields: ["number", "user.login"],
      want: [
        { number: 1, user: { login: "octo" } },
        { number: 1, user: { login: "octo" } },
      ],
    },
    { why: "through a list inside", given: issue, fields: ["labels.name"], want: { labels: [{ name: "x" }] } },
    {
      // A path inside a field already selected whole adds nothing, and selects nothing at the top level.
      why: "a whole field and a path inside it, either order",
      given: { ...issue, id: 7 },
      fields: ["user", "user.id", "labels.id", "labels"],
      want: { user: { login: "octo", id: 9 }, labels: [{ name: "x", id: 1 }] },
    },
    {
      why: "a whole field wins over a path inside it",
      given: issue,
      fields: ["user.login", "user"],
      want: { user: issue.user },
    },
    { why: "a path through null keeps the null", given: { user: null }, fields: ["user.login"], want: { user: null } },
    { why: "nothing matches: empty objects", given: issue, fields: ["nope"], want: {} },
  ];
  for (const { why, given, fields, want } of cases) it(why, () => expect(selectFields(given, fields)).toEqual(want));

  it("a field named __proto__ is data", () => {
    const given = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const picked = selectFields(given, ["__proto__.polluted"]) as Record<string, unknown>;
    expect(Object.hasOwn(picked, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("takeFields splits _fields off the arguments", () => {
    expect(takeFields({ a: 1, _fields: ["x"] })).toEqual({ args: { a: 1 }, fields: ["x"] });
    expect(takeFields({ a: 1, _fields: [] })).toEqual({ args: { a: 1 } });
    expect(takeFields({ a: 1 })).toEqual({ args: { a: 1 } });
  });
});

describe("nextPage: the arguments that fetch the rest", () => {
  const facts = (kept: number, total: number, last?: unknown) => ({ kept, total, last, answer: {} });
  const cases: Array<{
    why: string;
    props: string[];
    args: object;
    cut: ReturnType<typeof facts>;
    link?: string;
    want: unknown;
  }> = [
    {
      why: "page/per_page, first page",
      props: ["page", "per_page"],
      args: { per_page: 100 },
      cut: facts(40, 100),
      want: { per_page: 40, page: 2 },
    },
    {
      why: "page/per_page, third page: a size that lands exactly",
      props: ["page", "per_page"],
      args: { page: 3, per_page: 100 },
      cut: facts(40, 100),
      want: { per_page: 40, page: 7 },
    },
    {
      why: "offset/limit",
      props: ["offset", "limit"],
      args: { offset: 10, limit: 100 },
      cut: facts(25, 100),
      want: { offset: 35, limit: 25 },
    },
    {
      why: "starting_after: the last item shown",
      props: ["starting_after", "limit"],
      args: {},
      cut: facts(3, 10, { id: "cus_3" }),
      want: { starting_after: "cus_3" },
    },
    {
      why: "Link rel=next: the arguments its query sets (not a key in it)",
      props: ["since"],
      args: {},
      cut: facts(3, 10),
      link: '<https://api.example.com/users?since=135&api_key=k>; rel="next", <https://api.example.com/users?since=0>; rel="first"',
      want: { since: 135 },
    },
    { why: "no pagination argument", props: ["q"], args: {}, cut: facts(3, 10), want: undefined },
  ];
  for (const { why, props, args, cut, link, want } of cases) {
    it(why, () => {
      const properties = Object.fromEntries(props.map((p) => [p, {}]));
      const next = nextPage(properties, args as Record<string, unknown>, cut, link);
      expect(next?.arguments).toEqual(want);
    });
  }
});

describe("hostile text: a megabyte without a space", () => {
  // BPE time grows with the square of a word's length: whole, this text would take minutes to count.
  it("is cut to the budget in pieces, at once", async () => {
    const tokens = await tokenCounter();
    const text = "a".repeat(1_000_000);
    const cut = cutLines(text, 1000, tokens);
    expect(cut.partial).toBe(true);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(tokens.count(cut.text)).toBeLessThanOrEqual(1000);
    const result = await fitHandlerResult({ content: [{ type: "text", text }] }, 25_000);
    const shown = ((result.content ?? [])[0] as { text: string }).text;
    expect(shown.length).toBeGreaterThan(10_000);
    expect(tokens.count(shown)).toBeLessThanOrEqual(25_000);
    expect(cutJson({ items: [text, "b"] }, 1000, tokens)).toMatchObject({ kept: 0, total: 2 });
  }, 20_000);
});

describe("fitUpstreamResult: the result around the cut", () => {
  const call = { maxTokens: 1000, inputSchema: {}, args: {}, offersFields: true };
  const answer = (json: unknown, text = JSON.stringify(json)) => ({
    result: { content: [{ type: "text" as const, text }], ...(Array.isArray(json) ? {} : { structuredContent: json }) },
    json,
  });

  it("small: the upstream's own text, untouched, no _meta", async () => {
    const given = answer({ a: 1 }, '{ "a": 1 }');
    expect(await fitUpstreamResult(given, call)).toBe(given.result);
  });

  it("over the budget only by its indentation: compact JSON, no note, no _meta", async () => {
    const value = { items: Array.from({ length: 150 }, (_, a) => ({ a })) };
    const pretty = JSON.stringify(value, null, "\t".repeat(10));
    const tokens = await tokenCounter();
    expect(tokens.within(pretty, 1000)).toBe(false);
    const result = await fitUpstreamResult(answer(value, pretty), call);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(value) }]);
    expect(result._meta).toBeUndefined();
  });

  it("a partial answer the outputSchema refuses is an isError text result, not structuredContent", async () => {
    const refuse = Object.assign(() => false, { errors: [] });
    const result = await fitUpstreamResult(answer({ items: items(500) }), { ...call, validateOutput: refuse });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(((result.content ?? [])[0] as { text: string }).text).toMatch(/does not match this tool's outputSchema/);
    expect(result._meta?.[RESPONSE_META]).toMatchObject({ cut: { total: 500 } });
  });
});
