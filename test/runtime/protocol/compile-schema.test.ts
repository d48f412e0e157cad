import { describe, expect, test } from "vitest";
import { compileSchema } from "../../../runtime/protocol/compile-schema.ts";

describe("compileSchema (ajv 2020-12 + formats)", () => {
  test("validates 2020-12 keywords and formats, reporting errors in the standalone shape", () => {
    const validate = compileSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        tags: { type: "array", prefixItems: [{ type: "string" }] },
      },
      required: ["email"],
    });
    expect(validate({ email: "a@b.co", tags: ["x"] })).toBe(true);
    expect(validate({ email: "nope" })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/email", message: 'must match format "email"' });
    expect(validate({ email: "a@b.co", tags: [1] })).toBe(false);
  });

  test("checks own properties only: optional prototype-named properties may be left out (issue 11 item 9)", () => {
    const validate = compileSchema({
      type: "object",
      properties: { constructor: { type: "object" }, toString: { type: "string" }, valueOf: { type: "integer" } },
      required: ["valueOf"],
    });
    expect(validate({ valueOf: 1 })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ message: "must have required property 'valueOf'" });
    expect(validate({ valueOf: 1, constructor: "x" })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/constructor", message: "must be object" });
  });
});
