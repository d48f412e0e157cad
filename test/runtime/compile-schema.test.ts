import { describe, expect, test } from "vitest";
import { compileSchema } from "../../runtime/compile-schema.ts";

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
});
