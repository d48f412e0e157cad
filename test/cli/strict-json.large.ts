/** Issue 12, defect 3: a .json spec is strict JSON, with each syntax fault at its exact line:col. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxFault } from "../../generator/source/json-syntax.ts";
import { mcpgen, NO_TRACE, tempDir } from "./run.ts";

const dir = tempDir("strict-json");
const server = '"server": {"name": "a", "version": "1.0.0"}';

function validate(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const run = mcpgen(dir, "validate", name, "--format", "json");
  return { code: run.code, diagnostics: JSON.parse(run.stdout) as Array<Record<string, unknown>>, stderr: run.stderr };
}

describe("a .json spec is strict JSON", () => {
  it.each([
    ["trailing comma", `{\n  ${server},\n}\n`, 2, 46, "trailing comma before '}'"],
    ["single-quoted key", `{\n  'server': {"name": "a", "version": "1.0.0"}\n}\n`, 2, 3, "single-quoted string"],
    ["plain YAML saved as .json", "server:\n  name: a\n  version: 1.0.0\n", 1, 1, "reads like YAML"],
    ["// comment", `{\n  // the server\n  ${server}\n}\n`, 2, 3, "comments are not allowed in JSON"],
    [
      "unquoted key",
      `{\n  server: {"name": "a", "version": "1.0.0"}\n}\n`,
      2,
      3,
      "property name 'server' must be a double-quoted string",
    ],
    ["missing comma", `{\n  ${server}\n  "tools": []\n}\n`, 3, 3, "a ',' is missing"],
    ["unclosed object", `{\n  ${server}\n`, 3, 1, "unexpected end of the file"],
    ["raw line break in a string", `{"server": {"name": "a\nb", "version": "1.0.0"}}`, 1, 23, "control character"],
  ])("%s: exit 1, one JSON_SYNTAX at the exact place", (_, text, line, col, message) => {
    const run = validate("spec.json", text);
    expect(run.code).toBe(1);
    expect(run.diagnostics).toHaveLength(1);
    expect(run.diagnostics[0]).toMatchObject({ code: "JSON_SYNTAX", line, col });
    expect(run.diagnostics[0].message).toContain(message);
    expect(run.stderr).not.toMatch(NO_TRACE);
  });

  it("duplicate keys and a non-object top level are still reported; valid JSON passes", () => {
    expect(validate("dup.json", `{${server},\n ${server}}`).diagnostics[0]).toMatchObject({
      code: "YAML_DUPLICATE_KEY",
      line: 2,
      col: 2,
    });
    expect(validate("list.json", "[1]").diagnostics[0]).toMatchObject({ code: "SPEC_NOT_MAPPING" });
    expect(validate("ok.json", `{${server}}`)).toMatchObject({ code: 0, diagnostics: [] });
  });

  it("the same text as .yaml is still read as YAML", () => {
    expect(validate("spec.yaml", `{\n  ${server},\n}\n`)).toMatchObject({ code: 0, diagnostics: [] });
  });

  it("the fault scanner agrees with JSON.parse on what is JSON", () => {
    // Valid JSON, then the same text cut or with one character changed or inserted.
    const mutated = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.constantFrom("", ",", "'", "}", "]", "/", ":", '"', "x", "\n", "0", "-"),
        fc.boolean(),
      )
      .map(([json, at, insert, replace]) => {
        const i = json.length === 0 ? 0 : at % json.length;
        return json.slice(0, i) + insert + json.slice(replace ? i + 1 : i);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const fault = jsonSyntaxFault(text);
        expect(fault === undefined, `${JSON.stringify(text)} → ${JSON.stringify(fault)}`).toBe(parses);
        if (fault) expect(fault.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 2000, seed: 20261123 },
    );
  });
});
