/** The outputSchema size limit measures a schema with its shared `$defs` without serializing them per tool. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLength } from "../../generator/openapi/operation.ts";

describe("jsonLength", () => {
  it("equals JSON.stringify(schema).length, wherever $defs sits and however many it holds", () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const schema = fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(fc.string(), value, { maxKeys: 3 }),
        $defs: fc.dictionary(fc.string(), fc.dictionary(fc.string(), value, { maxKeys: 3 }), { maxKeys: 4 }),
        title: fc.string(),
      },
      { requiredKeys: ["$defs"] },
    );
    fc.assert(
      fc.property(schema, (s) => {
        expect(jsonLength(s)).toBe(JSON.stringify(s).length);
      }),
      { numRuns: 500 },
    );
  });
});
