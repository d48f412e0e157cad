/**
 * The JSON fast path must locate exactly as the YAML parser does, since diagnostics on JSON specs
 * used to come from it: for random JSON (any nesting, escaped keys, every scalar) in random layouts,
 * every key and value of the document gets the same line:col from both locators.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { childPointer } from "../../generator/source/json-pointer.ts";
import { hasDuplicateJsonKeys, jsonLocator } from "../../generator/source/json-scan.ts";
import { yamlLocator } from "../../generator/source/yaml-locator.ts";

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a/b", "~0", 'q"', "x\\y", "é\u2028", "{[,:]}"));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
})).value;
const document = fc.dictionary(key, json, { maxKeys: 5 });

function pointers(value: unknown, pointer = ""): string[] {
  if (value === null || typeof value !== "object") return [pointer];
  const children = Object.entries(value).flatMap(([k, v]) => pointers(v, childPointer(pointer, k)));
  return [pointer, ...children];
}

describe("jsonLocator", () => {
  it("agrees with the YAML parser's locator on every key and value", () => {
    fc.assert(
      fc.property(document, fc.constantFrom(undefined, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const fast = jsonLocator(text);
        const slow = yamlLocator(text);
        for (const pointer of pointers(value)) {
          expect(fast(pointer), pointer).toEqual(slow(pointer));
          expect(fast(pointer, "key"), pointer).toEqual(slow(pointer, "key"));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("finds duplicate keys, however they are spelled, and only those", () => {
    expect(hasDuplicateJsonKeys('{"a": {"b": 1, "\\u0062": 2}}')).toBe(true);
    expect(hasDuplicateJsonKeys('{"a": [{"b": 1}, {"b": 2}], "c": {"b": "b"}}')).toBe(false);
    expect(hasDuplicateJsonKeys('{"a\\"": 1, "a": 2, "\\\\": ["a", "a"]}')).toBe(false);
  });
});
