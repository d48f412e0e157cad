/**
 * Issue 12, defects 4 and 5 over the real command line: schema typos and null keys, HTTP_METHOD_INVALID's
 * hint, unbounded header integers, and OpenAPI-only options given with a spec-language file.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT, tempDir } from "./run.ts";

const dir = tempDir("spec-checks");
const head = "server: { name: t, version: 1.0.0 }\n";

function validate(text: string, ...flags: string[]) {
  const file = join(dir, "spec.yaml");
  writeFileSync(file, text);
  const run = mcpgen(dir, "validate", "spec.yaml", "--format", "json", ...flags);
  const diagnostics = run.stdout ? (JSON.parse(run.stdout) as Array<Record<string, string | number>>) : [];
  return { code: run.code, diagnostics, stderr: run.stderr };
}

describe("typos inside schemas are warned about", () => {
  it("propertes and requird inside inputSchema: SCHEMA_UNKNOWN_KEYWORD with did you mean", () => {
    const run = validate(
      `${head}tools:\n  - name: t1\n    inputSchema:\n      type: object\n      propertes: { a: { type: string } }\n      requird: [a]\n`,
    );
    expect(run.code).toBe(0);
    expect(run.diagnostics.map((d) => [d.code, d.line, d.col, d.hint])).toEqual([
      ["SCHEMA_UNKNOWN_KEYWORD", 6, 7, "did you mean 'properties'?"],
      ["SCHEMA_UNKNOWN_KEYWORD", 7, 7, "did you mean 'required'?"],
    ]);
    expect(run.diagnostics[0].severity).toBe("warning");
  });

  it("checks nested schemas against the declared dialect; x- keys are allowed", () => {
    const run = validate(
      `${head}tools:\n  - name: t1\n    inputSchema:\n      $schema: http://json-schema.org/draft-07/schema#\n      type: object\n      x-internal: true\n      properties:\n        a: { type: array, items: { type: string, minLenght: 1 }, prefixItems: [] }\n`,
    );
    expect(run.diagnostics.map((d) => [d.code, d.pointer, d.hint])).toEqual([
      ["SCHEMA_UNKNOWN_KEYWORD", "/tools/0/inputSchema/properties/a/items/minLenght", "did you mean 'minLength'?"],
      // prefixItems is 2020-12, not draft-07
      ["SCHEMA_UNKNOWN_KEYWORD", "/tools/0/inputSchema/properties/a/prefixItems", expect.any(String)],
    ]);
  });

  it("prose split by a comma in a flow map: a key with no value, and how to quote it", () => {
    const run = validate(
      `${head}tools:\n  - name: t1\n    inputSchema: { type: object, properties: { city: { type: string, description: City name, e.g. Paris } } }\n`,
    );
    expect(run.diagnostics).toHaveLength(1);
    expect(run.diagnostics[0]).toMatchObject({
      code: "SCHEMA_NULL_KEYWORD",
      severity: "warning",
      pointer: "/tools/0/inputSchema/properties/city/e.g. Paris",
      hint: 'it looks like text split at a comma: quote it, description: "City name, e.g. Paris"',
    });
  });

  it("the examples in specs/ are clean", () => {
    const run = mcpgen(
      ROOT,
      "validate",
      "specs/weather.yaml",
      "specs/notes.yaml",
      "specs/tasks.json",
      "specs/conformance.yaml",
    );
    expect([run.code, run.stdout]).toEqual([0, ""]);
  });
});

describe("defect 5", () => {
  const upstream = "upstream: { baseUrl: 'https://api.example.com' }\n";
  it("HTTP_METHOD_INVALID's hint lists the methods (and guesses)", () => {
    const run = validate(
      `${head}${upstream}tools:\n  - { name: t1, inputSchema: { type: object }, http: { method: GTE, path: /a } }\n`,
    );
    expect(run.diagnostics).toHaveLength(1);
    expect(run.diagnostics[0].hint).toBe("did you mean GET? use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
  });

  it("an unbounded integer with x-mcp-header: HEADER_INTEGER_UNBOUNDED; bounded or an enum: nothing", () => {
    const spec = (schema: string) =>
      `${head}tools:\n  - { name: t1, inputSchema: { type: object, properties: { n: ${schema} } } }\n`;
    const unbounded = validate(spec("{ type: integer, x-mcp-header: N }"));
    expect(unbounded.code).toBe(0);
    expect(unbounded.diagnostics.map((d) => [d.code, d.severity])).toEqual([["HEADER_INTEGER_UNBOUNDED", "warning"]]);
    expect(unbounded.diagnostics[0].message).toContain("no minimum");
    expect(validate(spec("{ type: integer, minimum: 1, x-mcp-header: N }")).diagnostics[0].message).toContain(
      "no maximum",
    );
    expect(validate(spec("{ type: integer, minimum: 1, maximum: 9, x-mcp-header: N }")).diagnostics).toEqual([]);
    expect(validate(spec("{ type: integer, enum: [1, 2], x-mcp-header: N }")).diagnostics).toEqual([]);
  });

  it("--include, --exclude and --config with a spec-language file are a usage error (exit 2)", () => {
    writeFileSync(join(dir, "mapping.yaml"), "maxTools: 10\n");
    for (const flags of [
      ["--include", "tag:x"],
      ["--exclude", "method:GET"],
      ["--config", "mapping.yaml"],
    ]) {
      const run = validate(`${head}tools: []\n`, ...flags);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.diagnostics.map((d) => d.code)).toEqual(["OPENAPI_OPTION_UNUSED"]);
      expect(run.diagnostics[0].message).toContain(`${flags[0]} applies to OpenAPI documents only`);
    }
    const generate = mcpgen(dir, "generate", "spec.yaml", "--out", "out", "--include", "tag:x");
    expect(generate.code).toBe(2);
    expect(generate.stdout).toContain("OPENAPI_OPTION_UNUSED");
    // The same flags with an OpenAPI document are fine.
    expect(mcpgen(ROOT, "validate", "specs/petstore.yaml", "--include", "tag:pets").code).toBe(0);
  });
});
