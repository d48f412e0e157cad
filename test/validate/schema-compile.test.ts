/**
 * SCHEMA_INVALID for what would stop ajv compiling a schema. validate compiles only schemas whose
 * references a JSON pointer cannot settle; the rest are checked directly (every `$ref` resolves,
 * every regular expression is valid). Each case names the keyword at fault, with its position.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFiles } from "../../generator/index.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-schema-compile-"));
const spec = (schema: string) =>
  `server: { name: t, version: 1.0.0 }\ntools:\n  - name: t1\n    inputSchema:\n${schema.replace(/^/gm, "      ")}\n`;

function diagnose(name: string, schema: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, spec(schema));
  return validateFiles([file]).diagnostics.map((d) => ({ code: d.code, at: `${d.line}:${d.col}`, message: d.message }));
}

describe("SCHEMA_INVALID without compiling", () => {
  it("reports a pattern that is not a valid regular expression, at the pattern", () => {
    const found = diagnose("pattern", "type: object\nproperties:\n  a: { type: string, pattern: '[a-' }");
    expect(found).toEqual([
      {
        code: "SCHEMA_INVALID",
        at: "7:37",
        message: expect.stringContaining('pattern "[a-" is not a valid regular expression'),
      },
    ]);
  });

  it("reports a patternProperties key that is not a valid regular expression", () => {
    const found = diagnose("pattern-properties", "type: object\npatternProperties:\n  '(x': { type: string }");
    expect(found.map((d) => [d.code, d.at])).toEqual([["SCHEMA_INVALID", "7:15"]]);
    expect(found[0].message).toContain('pattern "(x"');
  });

  it("reports a local $ref that points nowhere, at the $ref", () => {
    const found = diagnose("ref", "type: object\nproperties:\n  a: { $ref: '#/$defs/missing' }\n$defs: {}");
    expect(found).toEqual([
      {
        code: "SCHEMA_INVALID",
        at: "7:20",
        message: expect.stringContaining("can't resolve reference #/$defs/missing"),
      },
    ]);
  });

  it("accepts local references, percent-encoded ones included", () => {
    const schema =
      "type: object\nproperties:\n  a: { $ref: '#/$defs/a%20b' }\n  b: { $ref: '#/properties/a' }\n$defs: { 'a b': { type: string } }";
    expect(diagnose("ref-ok", schema)).toEqual([]);
  });

  it("reports a meta-schema violation inside $defs at its place, the same for every tool that carries it", () => {
    const file = join(dir, "defs.yaml");
    const schema = "{ type: object, properties: { a: { $ref: '#/$defs/d' } }, $defs: { d: { minLength: -1 } } }";
    writeFileSync(
      file,
      `server: { name: t, version: 1.0.0 }\ntools:\n  - name: t1\n    inputSchema: ${schema}\n  - name: t2\n    inputSchema: ${schema}\n`,
    );
    const found = validateFiles([file]).diagnostics.map((d) => [d.code, d.pointer, d.message]);
    expect(found).toEqual([
      [
        "SCHEMA_INVALID",
        "/tools/0/inputSchema/$defs/d/minLength",
        "inputSchema of tool 't1': 'minLength' must be >= 0",
      ],
      [
        "SCHEMA_INVALID",
        "/tools/1/inputSchema/$defs/d/minLength",
        "inputSchema of tool 't2': 'minLength' must be >= 0",
      ],
    ]);
  });

  it("still compiles schemas whose references need $id or $anchor, and reports what ajv finds", () => {
    const ok = "type: object\nproperties:\n  a: { $ref: '#name' }\n$defs: { n: { $anchor: name, type: string } }";
    expect(diagnose("anchor-ok", ok)).toEqual([]);
    const bad = "type: object\nproperties:\n  a: { $ref: '#nowhere' }\n$defs: { n: { $anchor: name, type: string } }";
    const found = diagnose("anchor-bad", bad);
    expect(found.map((d) => [d.code, d.at])).toEqual([["SCHEMA_INVALID", "7:20"]]);
    expect(found[0].message).toContain("can't resolve reference #nowhere");
  });
});
