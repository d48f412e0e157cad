/**
 * One YAML mistake, one diagnostic (issue 11, "also found while reading"): `path: /orders/{orderId}`
 * inside a flow mapping used to bring 54 cascading YAML_SYNTAX errors. Each top-level region reports
 * its first error only; a second region reports one only when it is broken on its own; a flow
 * indicator inside an unquoted flow value is named, with the quoted fix in the hint.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFiles } from "../../generator/index.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-yaml-syntax-"));

function check(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return validateFiles([file]).diagnostics;
}

/** A realistic spec: many tools after the broken line, so the parser's cascade would have much to echo. */
function shop(brokenLine: string): string {
  const tools = Array.from(
    { length: 8 },
    (_, i) => `  - name: tool_${i}
    description: Tool ${i}.
    inputSchema:
      type: object
      properties:
        id: { type: string }
      required: [id]
    http: { method: GET, path: "/things/{id}" }
`,
  ).join("");
  return `server:
  name: shop
  version: 1.0.0
upstream:
  baseUrl: https://api.example.com
tools:
  - name: get_order
    description: Get one order.
    inputSchema:
      type: object
      properties:
        orderId: { type: string }
      required: [orderId]
${brokenLine}
${tools}resources:
  - uri: shop://index
    name: index
    text: hello
prompts:
  - name: review
    description: Review.
    messages:
      - { role: user, content: { type: text, text: "Review the orders." } }
`;
}

describe("YAML syntax errors", () => {
  it("reports an unquoted {braces} value in a flow mapping once, naming the cause, with the quoted fix", () => {
    const found = check("flow-map.yaml", shop("    http: { method: GET, path: /orders/{orderId} }"));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: "YAML_SYNTAX", line: 14, col: 32 });
    expect(found[0].message).toContain("the unquoted value of 'path' holds '{', a flow indicator");
    expect(found[0].hint).toBe('quote the value: path: "/orders/{orderId}"');
  });

  it("the quoted fix is valid: the same file with it has no syntax error", () => {
    const found = check("fixed.yaml", shop('    http: { method: GET, path: "/orders/{orderId}" }'));
    expect(found.filter((d) => d.code.startsWith("YAML_"))).toEqual([]);
  });

  it("names a flow indicator inside an unquoted list item too", () => {
    const found = check("flow-seq.yaml", shop("    tags: [a, b[1], c]"));
    expect(found).toHaveLength(1);
    expect(found[0].message).toContain("an unquoted list item holds '['");
    expect(found[0].hint).toBe('quote the item: "b[1]"');
  });

  it("still reports an independent mistake in a later region, and only its first error", () => {
    const text = shop("    http: { method: GET, path: /orders/{orderId} }").replace(
      "  - uri: shop://index",
      '  - uri: "shop://index',
    );
    const found = check("two-mistakes.yaml", text);
    expect(found.map((d) => [d.code, d.line])).toEqual([
      ["YAML_SYNTAX", 14],
      ["YAML_SYNTAX", expect.any(Number)],
    ]);
    expect(found[1].line).toBeGreaterThanOrEqual(79);
    expect(found[1].message).toMatch(/quote/i);
  });

  it("a malformed JSON file gets one error, at the mistake (strict JSON, never the YAML cascade)", () => {
    const found = check("bad.json", '{\n  "server": { "name": "x",\n  "version": "1.0.0" \n  "tools": []\n}\n');
    expect(found.map((d) => [d.code, d.line])).toEqual([["JSON_SYNTAX", 4]]);
  });

  it("leaves a generic parser message when the cause is something else", () => {
    const found = check("generic.yaml", "server:\n  name: x\n  version: 1.0.0\ntools: [\n");
    expect(found).toHaveLength(1);
    expect(found[0].code).toBe("YAML_SYNTAX");
    expect(found[0].message).not.toContain("flow indicator");
  });
});
