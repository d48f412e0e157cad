// Schema keys that are text, not keywords: SCHEMA_NULL_KEYWORD (a key with no value) and SCHEMA_KEY_PROSE
// (a key with a space or ending in punctuation), in the spec language and in OpenAPI documents, where
// other unknown keys are vendor keywords and stay silent. OpenAPI's are reported once, where the document
// has them, however many tools share the schema.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFiles } from "../../generator/index.ts";
import { looksLikeProse } from "../../generator/rules/schema-keywords.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-key-text-"));
let n = 0;

function diagnostics(text: string, ext = "yaml") {
  const file = join(dir, `doc-${n++}.${ext}`);
  writeFileSync(file, text);
  return validateFiles([file]).diagnostics.map((d) => `${d.line}:${d.col} ${d.code} ${d.message} | ${d.hint}`);
}

describe("schema keys that read like text", () => {
  it("are told apart from keywords tightly", () => {
    for (const key of ["e.g. Paris", "for example", "Paris,", "e.g.", "note:", "why?", "tab\there"]) {
      expect(looksLikeProse(key), key).toBe(true);
    }
    for (const key of ["$ref", "x-nullable", "readOnly", "application/json", "x.y", "e.g", "nullable", "ISO-8601"]) {
      expect(looksLikeProse(key), key).toBe(false);
    }
  });

  it("in the spec language: a prose key says the likely YAML cause", () => {
    const spec = `server: { name: t, version: 1.0.0 }
tools:
  - name: t1
    inputSchema: { type: object, properties: { city: { type: string, description: City, for example: Paris } } }
`;
    expect(diagnostics(spec)).toEqual([
      "4:89 SCHEMA_KEY_PROSE 'for example' in inputSchema of tool 't1' reads like text, not a JSON Schema keyword | in a YAML flow mapping ({ ... }) an unquoted comma ends a value and the rest becomes a key of its own: quote the text; remove the key if it is not meant to be there",
    ]);
  });

  it("in an OpenAPI document: null and prose keys once each, where the document has them; vendor keys silent", () => {
    const doc = `openapi: 3.0.3
info: { title: T, version: 1.0.0 }
servers: [{ url: "https://api.example.com" }]
paths:
  /a: { post: { operationId: a, requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/City" } } } }, responses: { "200": { description: ok } } } }
  /b: { post: { operationId: b, requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/City" } } } }, responses: { "200": { description: ok } } } }
components:
  schemas:
    City:
      type: object
      properties:
        name: { type: string, description: City name, e.g. Paris, vendorHint: 3 }
        code: { type: string, description: Code, see also: ISO }
`;
    expect(diagnostics(doc)).toEqual([
      `12:55 SCHEMA_NULL_KEYWORD 'e.g. Paris' in inputSchema of tool 'a' is a key with no value | it looks like text split at a comma: quote it, description: "City name, e.g. Paris"`,
      "13:50 SCHEMA_KEY_PROSE 'see also' in inputSchema of tool 'a' reads like text, not a JSON Schema keyword | in a YAML flow mapping ({ ... }) an unquoted comma ends a value and the rest becomes a key of its own: quote the text; remove the key if it is not meant to be there",
    ]);
  });
});
