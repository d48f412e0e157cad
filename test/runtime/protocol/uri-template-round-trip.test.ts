/**
 * Expand-then-match round trips: for every template matchProblem accepts (the validator refuses
 * the rest with TEMPLATE_NOT_MATCHABLE), matching the expansion of any values gives those values
 * back. Templates mix every operator, several variables, prefixes and literals of all kinds,
 * including characters a value may contain ('-', '.', '%2F'), which is where guessing would show.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { matchProblem, parseUriTemplate } from "../../../runtime/protocol/uri-template.ts";
import { compileUriTemplate } from "../../../runtime/protocol/uri-template-match.ts";
import { expandUriTemplate } from "./expand-uri-template.ts";

// npm test replays the same cases every time (no flakes); test:fuzz (FUZZ_RUNS set) explores new ones.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261123;

type Expr = { operator: string; count: number; prefix?: number };
const literal = fc.constantFrom("", "/", ":", "@", "!", ",", ";", "=", "/x/", "-", ".", "x", ".json", "~", "%2F", "é");
const expression: fc.Arbitrary<Expr> = fc.record(
  {
    operator: fc.constantFrom("", "+", "#", ".", "/", ";"),
    count: fc.integer({ min: 1, max: 3 }),
    prefix: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: ["operator", "count"] },
);
const queries = fc.array(
  fc.record(
    {
      operator: fc.constantFrom("?", "&"),
      count: fc.integer({ min: 1, max: 3 }),
      prefix: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: ["operator", "count"] },
  ),
  { maxLength: 2 },
);
// {x} and {+x} expand an empty value to nothing, which no matcher can tell from an absent one.
const REQUIRED = new Set(["", "+"]);
// + and # pass reserved characters through unencoded, and '%XX' too: a value holding '%' cannot
// come back (the matcher decodes), nor one holding the '?' or '#' that start a query or fragment.
// Characters that mean something in a URI come often, so values collide with literals and markers.
const URI_CHARACTERS = [..."-._~/:@!,;=&+*'()[]$%?# é", "x", "x", "1"];
const character = fc.oneof(
  fc.constantFrom(...URI_CHARACTERS),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);
const valueFor = (operator: string) => {
  const value = fc.string({ unit: character, minLength: REQUIRED.has(operator) ? 1 : 0, maxLength: 8 });
  return operator === "+" || operator === "#" ? value.filter((v) => !/[%?#]/.test(v)) : value;
};

type Slot = { name: string; operator: string; prefix?: number };
const templateCase = fc
  .record({ path: fc.array(fc.tuple(literal, expression), { minLength: 1, maxLength: 4 }), query: queries })
  .chain(({ path, query }) => {
    let template = "t://r";
    const slots: Slot[] = [];
    const add = ({ operator, count, prefix }: Expr) => {
      const names = Array.from({ length: count }, (_, i) => `v${slots.length + i}`);
      for (const name of names) slots.push({ name, operator, prefix });
      template += `{${operator}${names.map((name) => (prefix ? `${name}:${prefix}` : name)).join(",")}}`;
    };
    for (const [text, expr] of path) {
      template += text;
      add(expr);
    }
    for (const expr of query) add(expr);
    return fc.tuple(fc.constant(template), fc.constant(slots), fc.tuple(...slots.map((s) => valueFor(s.operator))));
  });

describe("uri templates round trip", () => {
  test("match(expand(values)) gives the values back, for every template matchProblem accepts", () => {
    let accepted = 0;
    fc.assert(
      fc.property(templateCase, ([template, slots, values]) => {
        const parsed = parseUriTemplate(template);
        expect(parsed.error).toBeUndefined();
        if (matchProblem(parsed)) {
          expect(() => compileUriTemplate(template)).toThrow(/uriTemplate/);
          return;
        }
        accepted++;
        const given = Object.fromEntries(slots.map(({ name }, i) => [name, values[i]]));
        const want = Object.fromEntries(
          slots.map(({ name, prefix }, i) => [name, prefix ? [...values[i]].slice(0, prefix).join("") : values[i]]),
        );
        const uri = expandUriTemplate(template, given);
        expect({ template, uri, got: compileUriTemplate(template).match(uri) }).toEqual({ template, uri, got: want });
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    // The generator must keep exercising the matcher, not only the refusals.
    expect(accepted).toBeGreaterThan(RUNS / 5);
  });

  test("a URI that is not an expansion matches, if at all, to values that expand back into it", () => {
    // Hostile input: random text after a template's head; whatever match returns must be honest.
    const template = "t://r/{a}{/b,c}{;d}:x{.e}{?f,g}{#h}";
    const matcher = compileUriTemplate(template);
    const tail = fc.string({
      unit: fc.constantFrom("a", "/", ";", "d", "=", ":", "x", ".", "?", "f", "&", "#", "%", "2"),
    });
    fc.assert(
      fc.property(tail, (text) => {
        const uri = `t://r/${text}`;
        const got = matcher.match(uri);
        if (got === undefined) return;
        // Unknown query parameters are ignored, so compare the matched values, not the whole URI.
        expect(compileUriTemplate(template).match(expandUriTemplate(template, got))).toEqual(got);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
