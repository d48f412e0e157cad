/**
 * The RFC 6570 grammar shared by the validator and the runtime matcher: a table of templates × URIs
 * covering every operator, the validator's verdict on each template, and expand-then-match round trips.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { validateFiles } from "../../generator/index.ts";
import { createServer } from "../../runtime/index.ts";
import { expandUriTemplate, matchProblem, parseUriTemplate } from "../../runtime/uri-template.ts";
import { compileUriTemplate } from "../../runtime/uri-template-match.ts";
import { modernMeta } from "./helpers.ts";

type Want = Record<string, string> | undefined;

/** [template, uri, variables wanted or undefined for "no match"]; every template here validates. */
const MATCHES: Array<[string, string, Want]> = [
  // Level 1 and {a,b}: ',' separates values
  ["file:///{path}", "file:///notes.txt", { path: "notes.txt" }],
  ["file:///{path}", "file:///a/b.txt", undefined],
  ["file:///{path}", "file:///", undefined],
  ["users://{id}", "users://j%C3%BCrgen", { id: "jürgen" }],
  ["users://{id}", "users://a%2Fb", { id: "a/b" }],
  ["users://{id}/posts/{post}", "users://42/posts/7", { id: "42", post: "7" }],
  ["a://(literal)/{x}", "a://(literal)/1", { x: "1" }],
  ["t://{a,b}", "t://1,2", { a: "1", b: "2" }],
  ["t://{a,b}", "t://1", { a: "1" }],
  ["t://{a,b}", "t://1,2,3", undefined],
  ["t://{a:3}", "t://abc", { a: "abc" }],
  ["t://{a:3}", "t://abcd", undefined],
  ["t://{a}/{a}", "t://1/1", { a: "1" }],
  ["t://{a}/{a}", "t://1/2", undefined],
  // + reserved expansion
  ["file:///{+path}", "file:///a/b.txt", { path: "a/b.txt" }],
  ["t://{+p}/x", "t://a/b/x", { p: "a/b" }],
  ["file:///{+path}{?rev}", "file:///a/b.txt?rev=3", { path: "a/b.txt", rev: "3" }],
  ["t://{+p:2}", "t://abc", undefined],
  // # fragment
  ["t://a{#f}", "t://a#x,y", { f: "x,y" }],
  ["t://a{#f}", "t://a#", { f: "" }],
  ["t://a{#f}", "t://a", {}],
  // . label
  ["a://x{.ext}", "a://x.json", { ext: "json" }],
  ["a://x{.ext}", "a://x.tar.gz", { ext: "tar.gz" }],
  ["a://x{.ext}", "a://x", {}],
  ["a://x{.ext}", "a://y.json", undefined],
  // / path segments
  ["api://v1{/resource}", "api://v1/orders", { resource: "orders" }],
  ["t://a{/x,y}", "t://a/1/2", { x: "1", y: "2" }],
  ["t://a{/x,y}", "t://a/1", { x: "1" }],
  ["t://a{/x,y}", "t://a", {}],
  ["t://a{/x,y}", "t://a/1/2/3", undefined],
  ["t://a{/x}{/y}", "t://a/1/2", { x: "1", y: "2" }],
  ["t://{a}{/b}", "t://1/2", { a: "1", b: "2" }],
  ["t://a{/x:2}", "t://a/abc", undefined],
  // ; path parameters, named without the ';'
  ["t://a{;x}", "t://a;x=1", { x: "1" }],
  ["t://a{;x}", "t://a;x", { x: "" }],
  ["t://a{;x}", "t://a;y=1", undefined],
  ["t://a{;x,y}", "t://a;x=1;y=2", { x: "1", y: "2" }],
  ["t://a{;x,y}", "t://a;y=2;x=1", { x: "1", y: "2" }],
  ["t://a{;x,y}", "t://a;x=1;x=2", undefined],
  ["t://a{;x,xy}", "t://a;xy=1", { xy: "1" }],
  ["t://{a}{;b}", "t://1;b=2", { a: "1", b: "2" }],
  // ? query, any order; parameters the template does not name are ignored
  ["search://items{?q,limit}", "search://items?q=cat&limit=5", { q: "cat", limit: "5" }],
  ["search://items{?q,limit}", "search://items?limit=5&q=c%20t", { q: "c t", limit: "5" }],
  ["search://items{?q,limit}", "search://items", {}],
  ["search://items{?q,limit}", "search://items?q=&other=1", { q: "" }],
  ["search://items{?q,limit}", "search://items/x", undefined],
  ["t://a{?x:2}", "t://a?x=abc", undefined],
  // & query continuation
  ["t://a?k=v{&x}", "t://a?k=v&x=1", { x: "1" }],
  ["t://a?k=v{&x}", "t://a?k=v", {}],
  ["t://a{?x}{&y}", "t://a?y=2&x=1", { x: "1", y: "2" }],
  ["t://a{?x}{#f}", "t://a?x=1#top", { x: "1", f: "top" }],
];

/** Templates the validator refuses, and the code it gives. */
const REFUSED: Array<[string, string]> = [
  ["t://{a*}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{/x*}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{?x*}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{+a,b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{#x,y}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{.x,y}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{a}{b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{a}{+b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{a}{.b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{+a}{/b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://{+a}{;b}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{?x}/b", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a{?x}{/y}", "TEMPLATE_NOT_MATCHABLE"],
  ["t://a/{b", "TEMPLATE_INVALID"],
  ["t://a/{=b}", "TEMPLATE_INVALID"],
  ["t://a/{b:0}", "TEMPLATE_INVALID"],
  ["t://a/{+}", "TEMPLATE_VARIABLE_UNNAMED"],
];

/** The codes `mcpgen validate` reports for each template, read from one spec listing them all. */
function verdicts(templates: string[]): string[][] {
  const file = join(mkdtempSync(join(tmpdir(), "mcpgen-uri-")), "spec.yaml");
  const list = templates.map((t, i) => `  - { uriTemplate: ${JSON.stringify(t)}, name: t${i} }`).join("\n");
  writeFileSync(file, `server: { name: t, version: 1.0.0 }\nresourceTemplates:\n${list}\n`);
  const { diagnostics } = validateFiles([file]);
  return templates.map((_, i) =>
    diagnostics.filter((d) => d.pointer === `/resourceTemplates/${i}/uriTemplate`).map((d) => d.code),
  );
}

describe("uri templates", () => {
  test.each(MATCHES)("%s matches %s", (template, uri, want) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(want);
  });

  test("the validator accepts every template the matcher table uses", () => {
    const templates = [...new Set(MATCHES.map(([template]) => template))];
    const found = verdicts(templates);
    expect(Object.fromEntries(templates.map((t, i) => [t, found[i]]))).toEqual(
      Object.fromEntries(templates.map((t) => [t, []])),
    );
  });

  test("the validator refuses templates a server could not match back, and the runtime will not compile them", () => {
    const found = verdicts(REFUSED.map(([template]) => template));
    expect(found).toEqual(REFUSED.map(([, code]) => [code]));
    for (const [template] of REFUSED) expect(() => compileUriTemplate(template)).toThrow(/uriTemplate/);
  });

  test("variables are named without their operator, in template order", () => {
    expect(parseUriTemplate("t://a{;x}{/y,z:2}{?q}").variables).toEqual(["x", "y", "z", "q"]);
    expect(compileUriTemplate("t://a{;x}{?q}").variableNames).toEqual(["x", "q"]);
  });

  test("resources/read hands the template's handler the variables a client expanded", async () => {
    const server = createServer({ name: "t", version: "1.0.0" });
    server.resourceTemplate({
      uriTemplate: "t://a{;x}{/y,z}{?q}",
      name: "t",
      read: (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
    });
    const values = { x: "1", y: "two words", z: "3,4", q: "a&b" };
    const uri = expandUriTemplate("t://a{;x}{/y,z}{?q}", values);
    const result = await server.handleRequest(
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri, _meta: modernMeta() } },
      { signal: new AbortController().signal, notify: () => {} },
    );
    expect(result).toMatchObject({ contents: [{ uri, text: JSON.stringify(values) }] });
    expect(() =>
      server.resourceTemplate({ uriTemplate: "t://{a}{b}", name: "u", read: () => ({ contents: [] }) }),
    ).toThrow(/side by side/);
  });

  test("expand follows RFC 6570 §3.2 for every operator", () => {
    const values = { var: "value", hello: "Hello World!", path: "/foo/bar", empty: "", x: "1024", y: "768" };
    const cases: Array<[string, string]> = [
      ["{var}", "value"],
      ["{hello}", "Hello%20World%21"],
      ["{+path}/here", "/foo/bar/here"],
      ["{#path,x}", "#/foo/bar,1024"],
      ["{x,y}", "1024,768"],
      ["X{.var}", "X.value"],
      ["{/var,x}/here", "/value/1024/here"],
      ["{;x,y,empty}", ";x=1024;y=768;empty"],
      ["{?x,y,empty}", "?x=1024&y=768&empty="],
      ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
      ["{var:3}", "val"],
      ["{?undef}", ""],
    ];
    for (const [template, want] of cases) expect(expandUriTemplate(template, values)).toBe(want);
  });
});

// npm test replays the same cases every time (no flakes); test:fuzz (FUZZ_RUNS set) explores new ones.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261123;

type Expr = { operator: string; count: number; prefix?: number };
const PATH_OPERATORS = ["", "+", "#", ".", "/", ";"];
// Literals between expressions: reserved characters a value never shows unencoded, or nothing at all.
const literal = fc.constantFrom("", "/", ":", "@", "!", "/x/");
const expression: fc.Arbitrary<Expr> = fc.record(
  {
    operator: fc.constantFrom(...PATH_OPERATORS),
    count: fc.integer({ min: 1, max: 3 }),
    prefix: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: ["operator", "count"] },
);
const queries = fc.array(fc.record({ operator: fc.constantFrom("?", "&"), count: fc.integer({ min: 1, max: 3 }) }), {
  maxLength: 2,
});
// + and # pass reserved characters and %XX through unencoded, so their values leave those out.
const RESERVED = /[:/?#[\]@!$&'()*+,;=%]/;
const anyValue = fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 });
const plainValue = anyValue.filter((value) => !RESERVED.test(value));

const templateCase = fc
  .record({ path: fc.array(fc.tuple(literal, expression), { minLength: 1, maxLength: 4 }), query: queries })
  .chain(({ path, query }) => {
    let template = "t://r";
    const slots: Array<{ name: string; operator: string; prefix?: number }> = [];
    const add = ({ operator, count, prefix }: Expr) => {
      const names = Array.from({ length: count }, (_, i) => `v${slots.length + i}`);
      for (const name of names) slots.push({ name, operator, prefix });
      template += `{${operator}${names.map((name) => (prefix ? `${name}:${prefix}` : name)).join(",")}}`;
    };
    for (const [text, expr] of path) {
      template += text;
      add({ ...expr, count: ["+", "#", "."].includes(expr.operator) ? 1 : expr.count });
    }
    for (const expr of query) add(expr);
    const values = slots.map(({ operator }) => (operator === "+" || operator === "#" ? plainValue : anyValue));
    return fc.tuple(fc.constant(template), fc.constant(slots), fc.tuple(...values));
  });

describe("uri templates round trip", () => {
  test("match(expand(values)) gives the values back, for every template the validator accepts", () => {
    fc.assert(
      fc.property(templateCase, ([template, slots, values]) => {
        const parsed = parseUriTemplate(template);
        expect(parsed.error).toBeUndefined();
        fc.pre(matchProblem(parsed) === undefined);
        const given = Object.fromEntries(slots.map(({ name }, i) => [name, values[i]]));
        const want = Object.fromEntries(
          slots.map(({ name, prefix }, i) => [name, prefix ? [...values[i]].slice(0, prefix).join("") : values[i]]),
        );
        const uri = expandUriTemplate(template, given);
        expect({ template, uri, got: compileUriTemplate(template).match(uri) }).toEqual({ template, uri, got: want });
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
