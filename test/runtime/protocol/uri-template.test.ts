/**
 * The RFC 6570 grammar shared by the validator and the runtime matcher: a table of templates × URIs
 * covering every operator (with several variables, prefixes and explode), the validator's exact
 * diagnostic for each template it refuses, and RFC 6570 §3.2's own expansion examples.
 * Round trips: uri-template-round-trip.test.ts; matching time: uri-template-linear.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { validateFiles } from "../../../generator/index.ts";
import { createServer } from "../../../runtime/index.ts";
import { parseUriTemplate } from "../../../runtime/protocol/uri-template.ts";
import { compileUriTemplate } from "../../../runtime/protocol/uri-template-match.ts";
import { modernMeta } from "../helpers.ts";
import { expandUriTemplate } from "./expand-uri-template.ts";

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
  ["t://{a:2,b}", "t://ab,cde", { a: "ab", b: "cde" }],
  ["t://{a:2,b}", "t://abc,d", undefined],
  ["t://{a}.json", "t://a.b.json", { a: "a.b" }],
  ["w://{city}.json{?units}", "w://paris.fr.json?units=si", { city: "paris.fr", units: "si" }],
  ["t://{a}\u00e9{b}", "t://1\u00e92", { a: "1", b: "2" }],
  ["t://{a}/{a}", "t://1/1", { a: "1" }],
  ["t://{a}/{a}", "t://1/2", undefined],
  // + reserved expansion
  ["file:///{+path}", "file:///a/b.txt", { path: "a/b.txt" }],
  ["t://{+p}/x", "t://a/b/x", { p: "a/b" }],
  ["file:///{+path}{?rev}", "file:///a/b.txt?rev=3", { path: "a/b.txt", rev: "3" }],
  ["t://{+p}/x", "t://a/x/x", { p: "a/x" }],
  ["t://{+p:2}", "t://abc", undefined],
  ["t://{+p:3}/x", "t://a/b/x", { p: "a/b" }],
  ["t://{+base}index", "t://http://example.com/home/index", { base: "http://example.com/home/" }],
  ["file:///{+path}{?rev}", "file:///a/b.txt", { path: "a/b.txt" }],
  // # fragment
  ["t://a{#f}", "t://a#x,y", { f: "x,y" }],
  ["t://a{#f}", "t://a#", { f: "" }],
  ["t://a{#f}", "t://a", {}],
  ["t://a{#f:3}", "t://a#abc", { f: "abc" }],
  ["t://a{#f:3}", "t://a#abcd", undefined],
  ["t://a{#f}/x", "t://a#b/x/x", { f: "b/x" }],
  // . label
  ["a://x{.ext}", "a://x.json", { ext: "json" }],
  ["a://x{.ext}", "a://x.tar.gz", { ext: "tar.gz" }],
  ["a://x{.ext}", "a://x", {}],
  ["a://x{.ext}", "a://y.json", undefined],
  ["a://x{.ext:3}", "a://x.tar", { ext: "tar" }],
  ["a://x{.ext:3}", "a://x.json", undefined],
  ["a://x{.ext}/{id}", "a://x.tar.gz/7", { ext: "tar.gz", id: "7" }],
  // / path segments
  ["api://v1{/resource}", "api://v1/orders", { resource: "orders" }],
  ["t://a{/x,y}", "t://a/1/2", { x: "1", y: "2" }],
  ["t://a{/x,y}", "t://a/1", { x: "1" }],
  ["t://a{/x,y}", "t://a", {}],
  ["t://a{/x,y}", "t://a/1/2/3", undefined],
  ["t://a{/x}{/y}", "t://a/1/2", { x: "1", y: "2" }],
  ["t://{a}{/b}", "t://1/2", { a: "1", b: "2" }],
  ["t://a{/x:2}", "t://a/abc", undefined],
  ["t://a{/x:2,y}", "t://a/ab/cde", { x: "ab", y: "cde" }],
  ["t://a{/x:2,y}", "t://a/abc/d", undefined],
  ["t://a{/x,y}", "t://a//2", { x: "", y: "2" }],
  ["t://a{/x,y}/z", "t://a/1/2/z", { x: "1", y: "2" }],
  // ; path parameters, named without the ';'
  ["t://a{;x}", "t://a;x=1", { x: "1" }],
  ["t://a{;x}", "t://a;x", { x: "" }],
  ["t://a{;x}", "t://a;y=1", undefined],
  ["t://a{;x,y}", "t://a;x=1;y=2", { x: "1", y: "2" }],
  ["t://a{;x,y}", "t://a;y=2;x=1", { x: "1", y: "2" }],
  ["t://a{;x,y}", "t://a;x=1;x=2", undefined],
  ["t://a{;x,xy}", "t://a;xy=1", { xy: "1" }],
  ["t://{a}{;b}", "t://1;b=2", { a: "1", b: "2" }],
  ["t://a{;x:2,y}", "t://a;x=ab;y=cde", { x: "ab", y: "cde" }],
  ["t://a{;x:2}", "t://a;x=abc", undefined],
  ["t://a{;x}{;y}", "t://a;x=1;y=2", { x: "1", y: "2" }],
  // ? query, any order; parameters the template does not name are ignored
  ["search://items{?q,limit}", "search://items?q=cat&limit=5", { q: "cat", limit: "5" }],
  ["search://items{?q,limit}", "search://items?limit=5&q=c%20t", { q: "c t", limit: "5" }],
  ["search://items{?q,limit}", "search://items", {}],
  ["search://items{?q,limit}", "search://items?q=&other=1", { q: "" }],
  ["search://items{?q,limit}", "search://items/x", undefined],
  ["t://a{?x:2}", "t://a?x=abc", undefined],
  ["t://a{?q:2,r}", "t://a?q=ab&r=cde", { q: "ab", r: "cde" }],
  ["t://a{?x}", "t://a?x=1&x=2", { x: "1" }],
  // & query continuation
  ["t://a?k=v{&x}", "t://a?k=v&x=1", { x: "1" }],
  ["t://a?k=v{&x}", "t://a?k=v", {}],
  ["t://a{?x}{&y}", "t://a?y=2&x=1", { x: "1", y: "2" }],
  ["t://a{?x}{#f}", "t://a?x=1#top", { x: "1", f: "top" }],
  ["t://a?k=v{&x,y}", "t://a?k=v&y=2&x=1", { x: "1", y: "2" }],
  ["t://a?k=v{&x:1}", "t://a?k=v&x=1", { x: "1" }],
  ["t://a?k=v{&x:1}", "t://a?k=v&x=12", undefined],
  ["t://a{?x}{?y}", "t://a?x=1?y=2", { x: "1", y: "2" }],
  // all operators in one template
  ["t://{a}/{+b}{?c}", "t://1/x/y?c=3", { a: "1", b: "x/y", c: "3" }],
  [
    "t://{a}{/b,c}{;d}:x{.e}{?f,g}{&h}{#i}",
    "t://1/2/3;d=4:x.5?g=7&f=6&h=8#9",
    { a: "1", b: "2", c: "3", d: "4", e: "5", f: "6", g: "7", h: "8", i: "9" },
  ],
];

const SIDE_BY_SIDE =
  "puts two expressions side by side, so a URI cannot show where one value ends; put a literal such as '/' between them";
const explodes = (text: string, name: string) =>
  `'${text}' explodes '${name}' with '*', whose list or map shape a URI cannot reveal; drop the '*'`;
const listsSeveral = (text: string, separator: string) =>
  `'${text}' lists several variables, but its separator '${separator}' may appear inside a value; use one variable per expression with a literal between`;
const endsAmbiguously = (span: string, c: string, expression: string, fix = "such as '/'") =>
  `in '${span}', a '${c}' can end the value of '${expression}' but can also be part of it, so a URI cannot show where that value ends; ${
    fix.startsWith("such")
      ? `follow '${expression}' with a character its values never contain unencoded, ${fix}, or with a literal that ends the template`
      : `put '${expression}' last, where only a literal or a {?...} or {#...} expression may follow it`
  }`;

/** Templates the validator refuses: [template, code, message after "uriTemplate '…': ", character]. */
const REFUSED: Array<[string, string, string, number?]> = [
  // explode, on every operator
  ["t://{a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{a*}", "a"), 5],
  ["t://{+a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{+a*}", "a"), 5],
  ["t://a{#a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{#a*}", "a"), 6],
  ["t://a{.a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{.a*}", "a"), 6],
  ["t://a{/x,a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{/x,a*}", "a"), 6],
  ["t://a{;a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{;a*}", "a"), 6],
  ["t://a{?a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{?a*}", "a"), 6],
  ["t://a{&a*}", "TEMPLATE_NOT_MATCHABLE", explodes("{&a*}", "a"), 6],
  // several variables where the separator may be inside a value
  ["t://{+a,b}", "TEMPLATE_NOT_MATCHABLE", listsSeveral("{+a,b}", ","), 5],
  ["t://a{#x,y}", "TEMPLATE_NOT_MATCHABLE", listsSeveral("{#x,y}", ","), 6],
  ["t://a{.x,y}", "TEMPLATE_NOT_MATCHABLE", listsSeveral("{.x,y}", "."), 6],
  // expressions side by side
  ["t://{a}{b}", "TEMPLATE_NOT_MATCHABLE", `'{a}{b}' ${SIDE_BY_SIDE}`, 8],
  ["t://{a}{+b}", "TEMPLATE_NOT_MATCHABLE", `'{a}{+b}' ${SIDE_BY_SIDE}`, 8],
  ["t://{a}{.b}", "TEMPLATE_NOT_MATCHABLE", `'{a}{.b}' ${SIDE_BY_SIDE}`, 8],
  ["t://{+a}{/b}", "TEMPLATE_NOT_MATCHABLE", `'{+a}{/b}' ${SIDE_BY_SIDE}`, 9],
  ["t://{+a}{;b}", "TEMPLATE_NOT_MATCHABLE", `'{+a}{;b}' ${SIDE_BY_SIDE}`, 9],
  ["t://a{/x}{b}", "TEMPLATE_NOT_MATCHABLE", `'{/x}{b}' ${SIDE_BY_SIDE}`, 10],
  // something after a query
  [
    "t://a{?x}/b",
    "TEMPLATE_NOT_MATCHABLE",
    "'/b' follows a query expression; put '{?...}' and '{&...}' at the end of the template",
    6,
  ],
  [
    "t://a{?x}{/y}",
    "TEMPLATE_NOT_MATCHABLE",
    "'{/y}' follows a query expression; put '{?...}' and '{&...}' at the end of the template",
    6,
  ],
  // a value followed by a character it may contain (the matcher would have to guess)
  ["t://{a}-{b}-{c}-{d}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a}-{b}", "-", "{a}"), 5],
  ["t://{a}.{b}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a}.{b}", ".", "{a}"), 5],
  ["t://{a}%2F{b}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a}%2F{b}", "%", "{a}"), 5],
  ["t://{a,b}-{c}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a,b}-{c}", "-", "{a,b}"), 5],
  ["t://{a}x{.b}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a}x{.b}", ".", "{a}"), 5],
  ["t://{a}{/b}-{c}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{a}{/b}-", "-", "{a}"), 5],
  ["t://{+p}/x/{q}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{+p}/x/{q}", "/", "{+p}", "last"), 5],
  ["t://{+a}/x{/b}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{+a}/x{/b}", "/", "{+a}", "last"), 5],
  ["t://a{#f}/{g}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{#f}/{g}", "/", "{#f}", "last"), 6],
  ["t://a{.e}.{f}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{.e}.{f}", ".", "{.e}"), 6],
  ["t://a{/x,y}/{z}", "TEMPLATE_NOT_MATCHABLE", endsAmbiguously("{/x,y}/{z}", "/", "{/x,y}", "such as ':'"), 6],
  // not a template at all
  ["t://a/{b", "TEMPLATE_INVALID", "expression '{' is never closed", 7],
  ["t://a/{b}}", "TEMPLATE_INVALID", "'}' without a matching '{'", 10],
  ["t://a/{=b}", "TEMPLATE_INVALID", "operator '=' is reserved for future use", 7],
  ["t://a/{b:0}", "TEMPLATE_INVALID", "prefix length ':0' in '{b:0}' must be 1 to 9999", 7],
  ["t://a/{b:10000}", "TEMPLATE_INVALID", "prefix length ':10000' in '{b:10000}' must be 1 to 9999", 7],
  ["t://a/{b c}", "TEMPLATE_INVALID", "'b c' in '{b c}' is not a valid variable name", 7],
  ["t://a b/{c}", "TEMPLATE_INVALID", 'character " " is not allowed outside an expression', 6],
  ["t://a/%zz{b}", "TEMPLATE_INVALID", "'%' is not followed by two hex digits", 7],
  ["t://a/{+}", "TEMPLATE_VARIABLE_UNNAMED", "expression '{+}' names no variable", 7],
];

/** What `mcpgen validate` reports for each template ("CODE: message"), from one spec listing them all. */
function verdicts(templates: string[]): string[][] {
  const file = join(mkdtempSync(join(tmpdir(), "mcpgen-uri-")), "spec.yaml");
  const list = templates.map((t, i) => `  - { uriTemplate: ${JSON.stringify(t)}, name: t${i} }`).join("\n");
  writeFileSync(file, `server: { name: t, version: 1.0.0 }\nresourceTemplates:\n${list}\n`);
  const { diagnostics } = validateFiles([file]);
  return templates.map((_, i) =>
    diagnostics
      .filter((d) => d.pointer === `/resourceTemplates/${i}/uriTemplate`)
      .map((d) => `${d.code}: ${d.message}`),
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

  test("the validator refuses templates a server could not match back, with the exact diagnostic", () => {
    const found = verdicts(REFUSED.map(([template]) => template));
    expect(Object.fromEntries(REFUSED.map(([template], i) => [template, found[i]]))).toEqual(
      Object.fromEntries(
        REFUSED.map(([template, code, message, at]) => [
          template,
          [`${code}: uriTemplate '${template}': ${message} (at character ${at})`],
        ]),
      ),
    );
  });

  test("the runtime refuses the same templates with the same words", () => {
    for (const [template, , message, at] of REFUSED) {
      const why = `uriTemplate '${template}': ${message} (at character ${at})`;
      expect(() => compileUriTemplate(template)).toThrow(why);
    }
  });

  // Issue 13 §1: validator and runtime disagreed on these three before they shared one grammar.
  test("the three disagreements of issue 13 stay fixed", () => {
    expect(parseUriTemplate("t://a{;x}").variables).toEqual(["x"]);
    expect(compileUriTemplate("t://a{;x}").match("t://a;x=1")).toEqual({ x: "1" });
    expect(verdicts(["t://a{/x,y}"])).toEqual([[]]);
    expect(compileUriTemplate("t://a{/x,y}").match("t://a/1/2")).toEqual({ x: "1", y: "2" });
    expect(compileUriTemplate("t://{a,b}").match("t://1,2")).toEqual({ a: "1", b: "2" });
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

  // Every example of RFC 6570 §3.2 whose variables are strings (lists and maps are refused above).
  test.each(RFC_6570_EXAMPLES)("RFC 6570 §3.2: %s expands to %s", (template, want) => {
    expect(expandUriTemplate(template, RFC_VALUES)).toBe(want);
  });
});

/** RFC 6570 §3.2's variables that are strings; `undef` is left out, as an undefined value is. */
const RFC_VALUES: Record<string, string> = {
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
};

const RFC_6570_EXAMPLES: Array<[string, string]> = [
  // 3.2.2 simple string expansion
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  ["{half}", "50%25"],
  ["O{empty}X", "OX"],
  ["O{undef}X", "OX"],
  ["{x,y}", "1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["?{x,empty}", "?1024,"],
  ["?{x,undef}", "?1024"],
  ["?{undef,y}", "?768"],
  ["{var:3}", "val"],
  ["{var:30}", "value"],
  // 3.2.3 reserved expansion
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+half}", "50%25"],
  ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
  ["{+base}index", "http://example.com/home/index"],
  ["O{+empty}X", "OX"],
  ["O{+undef}X", "OX"],
  ["{+path}/here", "/foo/bar/here"],
  ["{+path:6}/here", "/foo/b/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["up{+path}{var}/here", "up/foo/barvalue/here"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  // 3.2.4 fragment expansion
  ["{#var}", "#value"],
  ["{#hello}", "#Hello%20World!"],
  ["{#half}", "#50%25"],
  ["foo{#empty}", "foo#"],
  ["foo{#undef}", "foo"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["{#path:6}/here", "#/foo/b/here"],
  // 3.2.5 label expansion
  ["{.who}", ".fred"],
  ["{.who,who}", ".fred.fred"],
  ["{.half,who}", ".50%25.fred"],
  ["X{.var}", "X.value"],
  ["X{.var:3}", "X.val"],
  ["X{.empty}", "X."],
  ["X{.undef}", "X"],
  // 3.2.6 path segment expansion
  ["{/who}", "/fred"],
  ["{/who,who}", "/fred/fred"],
  ["{/half,who}", "/50%25/fred"],
  ["{/who,dub}", "/fred/me%2Ftoo"],
  ["{/var}", "/value"],
  ["{/var,empty}", "/value/"],
  ["{/var,undef}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{/var:1,var}", "/v/value"],
  // 3.2.7 path-style parameter expansion
  ["{;who}", ";who=fred"],
  ["{;half}", ";half=50%25"],
  ["{;empty}", ";empty"],
  ["{;hello:5}", ";hello=Hello"],
  ["{;v,empty,who}", ";v=6;empty;who=fred"],
  ["{;v,bar,who}", ";v=6;who=fred"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{;x,y,undef}", ";x=1024;y=768"],
  // 3.2.8 form-style query expansion
  ["{?who}", "?who=fred"],
  ["{?half}", "?half=50%25"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["{?x,y,undef}", "?x=1024&y=768"],
  ["{?var:3}", "?var=val"],
  // 3.2.9 form-style query continuation
  ["{&who}", "&who=fred"],
  ["{&half}", "&half=50%25"],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&var:3}", "&var=val"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  ["{&x,y,undef}", "&x=1024&y=768"],
];
