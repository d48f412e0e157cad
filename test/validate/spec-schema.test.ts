/** The spec language's JSON Schema, as editors see it, and docs/spec-language.md's example written against it. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFiles } from "../../generator/index.ts";
import { Ajv2020 } from "../../generator/schema/ajv.ts";
import { SPEC_SCHEMA_PATH } from "../../generator/spec/check-structure.ts";

const root = join(import.meta.dirname, "../..");

describe("the spec-language schema", () => {
  it("is a strict, valid JSON Schema 2020-12 document", () => {
    const schema = JSON.parse(readFileSync(SPEC_SCHEMA_PATH, "utf8"));
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("is named by every example spec, for editors", () => {
    for (const name of readdirSync(join(root, "specs"))) {
      const text = readFileSync(join(root, "specs", name), "utf8");
      if (/^(openapi|swagger):/m.test(text)) continue; // OpenAPI documents have their own schema
      if (name.endsWith(".json")) expect(JSON.parse(text).$schema, name).toBe("../generator/schema/mcpgen.schema.json");
      else
        expect(text.split("\n")[0], name).toBe(
          "# yaml-language-server: $schema=../generator/schema/mcpgen.schema.json",
        );
    }
  });

  it("accepts docs/spec-language.md's complete example", () => {
    const readme = readFileSync(join(root, "docs/spec-language.md"), "utf8");
    const example = /```yaml\n(# yaml-language-server[^\n]*\nserver:[\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const file = join(mkdtempSync(join(tmpdir(), "mcpgen-readme-")), "example.yaml");
    writeFileSync(file, example!);
    expect(validateFiles([file]).diagnostics).toEqual([]);
  });
});
