/**
 * Vendor documents are repaired, not refused (issue 11, "Real-world documents"): patterns written for
 * ECMA-262 without the u flag, type names from other languages, an empty info.title, an allOf inheritance
 * cycle that crashed the type generator, and diagnostics said once at the document's own pointer. One
 * small fixture per class, under fixtures/.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { compile } from "json-schema-to-typescript";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { generate } from "../../generator/index.ts";
import type { JsonSchema, ServerNode, ToolNode } from "../../generator/ir.ts";
import { load } from "../../generator/load.ts";
import { checkPattern } from "../../generator/openapi/repair-pattern.ts";
import { splitCyclicIntersections } from "../../generator/render/type-cycles.ts";
import { validate } from "../../generator/validate.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

function check(name: string) {
  const bag = new DiagnosticBag();
  const loaded = load(join(FIXTURES, name), bag);
  if (loaded) validate(loaded.server, loaded.report);
  const diagnostics = bag.sorted().map((d) => ({ code: d.code, pointer: d.pointer, at: `${d.line}:${d.col}` }));
  return { server: loaded?.server as ServerNode, diagnostics, all: bag.sorted() };
}

const tool = (server: ServerNode, name: string) => server.tools.find((t) => t.name === name) as ToolNode;
const props = (schema: JsonSchema | undefined) => (schema?.properties ?? {}) as Record<string, JsonSchema>;

describe("patterns invalid under the u flag", () => {
  it("needless escapes are written plainly and others dropped, each said once at the document's pointer", () => {
    const { server, diagnostics } = check("repair-patterns.yaml");
    expect(diagnostics).toEqual([
      {
        code: "OPENAPI_PATTERN_REPAIRED",
        pointer: "/paths/~1groups~1{group}/get/parameters/1/schema/pattern",
        at: "11:70",
      },
      {
        code: "OPENAPI_PATTERN_DROPPED",
        pointer: "/paths/~1groups~1{group}/get/parameters/2/schema/pattern",
        at: "12:74",
      },
      {
        code: "OPENAPI_PATTERN_DROPPED",
        pointer: "/paths/~1groups~1{group}/get/parameters/3/schema/pattern",
        at: "13:69",
      },
      {
        code: "OPENAPI_PATTERN_REPAIRED",
        pointer:
          "/paths/~1groups/post/requestBody/content/application~1json/schema/properties/labels/patternProperties/^x\\-",
        at: "27:48",
      },
      { code: "OPENAPI_PATTERN_REPAIRED", pointer: "/components/schemas/ObjectGroup/pattern", at: "33:16" },
    ]);
    const get = props(tool(server, "getGroup").inputSchema);
    expect(get.email.pattern).toBe("^[\\w\\-.+]+@[\\w\\-.+]+$");
    expect(get.printable).not.toHaveProperty("pattern");
    expect(get.code).not.toHaveProperty("pattern");
    const defs = tool(server, "createGroup").inputSchema.$defs as Record<string, JsonSchema>;
    expect(defs.ObjectGroup.pattern).toBe("^arn:aws:[a-z_]+(<b>|\\|)$");
    expect(Object.keys(props(tool(server, "createGroup").inputSchema).labels.patternProperties as object)).toEqual([
      "^x-",
    ]);
  });

  it("a rewrite matches exactly the strings the pattern matched without u, inside classes too", () => {
    const cases: Array<[string, string[]]> = [
      ["^\\d{4}\\-\\d{2}$", ["2024-01", "2024\\-01", "202401"]],
      ["^[\\w-.+]+@x$", ["a-b.c+d@x", "a@x", "-@x", "\\@x", "a b@x"]],
      ["^[a-z\\s-_]+$", ["a b", "a-b", "a_b", "A", "\\"]],
      ["^arn\\:aws\\:\\*\\~\\_$", ["arn:aws:*~_", "arn\\:aws:*~_", "arn:aws:x~_"]],
      ['[^\\:\\"]+', ["abc", ":", '"', "\\"]],
    ];
    for (const [pattern, samples] of cases) {
      const verdict = checkPattern(pattern);
      expect(verdict.kind, pattern).toBe("repaired");
      const rewritten = (verdict as { pattern: string }).pattern;
      for (const sample of samples) {
        expect(new RegExp(rewritten, "u").test(sample), `${pattern} on ${sample}`).toBe(
          new RegExp(pattern).test(sample),
        );
      }
    }
    // Escapes that are valid under u stay as they are; other dialects' escapes are not guessed at.
    expect(checkPattern("^[\\-\\]\\\\]\\.\\/$")).toEqual({ kind: "valid" });
    for (const pattern of ["\\p{Print}+", "\\A\\d+\\z", "[a-z]{1-20}", "[^\\000-\\037]", "("])
      expect(checkPattern(pattern), pattern).toEqual({ kind: "invalid" });
  });
});

describe("pattern rewrites, fuzzed", () => {
  // Pieces vendors' patterns are made of, escapes valid and not under u, inside and outside classes.
  const piece = fc.constantFrom(
    "a",
    "-",
    "_",
    ":",
    ".",
    "*",
    "+",
    "?",
    "^",
    "$",
    "|",
    "(",
    ")",
    "[",
    "]",
    "[^",
    "{2}",
    "{1,3}",
    "\\w",
    "\\d",
    "\\s",
    "\\-",
    "\\:",
    "\\_",
    "\\~",
    "\\@",
    "\\.",
    "\\/",
    "\\[",
    "\\]",
    "\\\\",
    "\\ ",
    '\\"',
    "\\'",
  );
  const text = fc.string({
    unit: fc.constantFrom("a", "b", "-", "_", ":", ".", "~", "@", "/", " ", "\\", "[", "]", '"', "1"),
  });

  it("a repaired pattern matches exactly the strings the original matched without u", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.array(text, { minLength: 1, maxLength: 8 }),
        (pieces, samples) => {
          const pattern = pieces.join("");
          const verdict = checkPattern(pattern);
          if (verdict.kind !== "repaired") return;
          const before = new RegExp(pattern);
          const after = new RegExp(verdict.pattern, "u");
          for (const sample of samples) expect(after.test(sample), `${pattern} on ${sample}`).toBe(before.test(sample));
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000), seed: 11 },
    );
  });
});

describe("type values outside JSON Schema's seven", () => {
  it("map well-known mistakes, drop the rest, and never refuse the document", () => {
    const { server, diagnostics } = check("repair-types.yaml");
    expect(diagnostics.every((d) => d.code === "OPENAPI_TYPE_REPAIRED")).toBe(true);
    expect(diagnostics.map((d) => d.pointer)).toEqual(
      ["count", "upload", "name", "mystery", "maybe", "kind"].map(
        (p) => `/components/schemas/Item/properties/${p}/type`,
      ),
    );
    const item = props(tool(server, "createItem").inputSchema);
    expect(item.count).toEqual({ type: "integer" });
    expect(item.upload).toEqual({ type: "string", format: "binary" });
    expect(item.name).toEqual({ type: "string" });
    expect(item.mystery).toEqual({});
    expect(item.maybe).toEqual({ type: ["string"] });
    expect(item.kind).toEqual({});
  });
});

describe("Swagger 2.0 documents", () => {
  it("repair parameters and headers that carry their own keywords; leave `type: file` and example data alone", () => {
    const { server, diagnostics } = check("repair-swagger2.yaml");
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OPENAPI_PATTERN_REPAIRED", "/paths/~1files~1{id}/post/parameters/0/pattern"],
      ["OPENAPI_TYPE_REPAIRED", "/paths/~1files~1{id}/post/parameters/2/type"],
      ["OPENAPI_PATTERN_REPAIRED", "/paths/~1files~1{id}/post/responses/200/headers/X-Rate/pattern"],
      ["OPENAPI_TYPE_REPAIRED", "/definitions/Stored/properties/at/type"],
    ]);
    const upload = tool(server, "upload");
    expect(props(upload.inputSchema).id.pattern).toBe("^f_[0-9]+$");
    expect(props(upload.inputSchema).content).toMatchObject({ type: "string", format: "binary" });
    const stored =
      (upload.outputSchema?.$defs as Record<string, JsonSchema> | undefined)?.Stored ?? upload.outputSchema;
    expect(props(stored).example).toEqual({ type: "string" });
  });
});

describe("info.title and info.version", () => {
  it("empty or missing fall back to the file name and 0.0.0, with a warning that says which", () => {
    const { server, all } = check("repair-info.yaml");
    expect(server.name).toBe("repair-info");
    expect(server.version).toBe("0.0.0");
    expect(all.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ["OPENAPI_INFO_REPAIRED", "/info", 'info.version is missing; read as "0.0.0"'],
      [
        "OPENAPI_INFO_REPAIRED",
        "/info/title",
        'info.title is empty; the server is named after the file: "repair-info"',
      ],
    ]);
  });
});

describe("a defect in a shared schema", () => {
  it("is reported once, at the document's own pointer, not once per tool", () => {
    const { diagnostics } = check("shared-defect.yaml");
    expect(diagnostics).toEqual([
      { code: "SCHEMA_INVALID", pointer: "/components/schemas/Name/properties/id/maxLength", at: "21:40" },
    ]);
  });
});

describe("an allOf inheritance cycle (Bing)", () => {
  const schemas: Record<string, JsonSchema> = {
    Response: { title: "Response", type: "object", properties: { action: { $ref: "#/$defs/Action" } } },
    Thing: {
      title: "Thing",
      allOf: [{ $ref: "#/$defs/Response" }],
      type: "object",
      properties: { n: { type: "string" } },
    },
    Action: {
      title: "Action",
      allOf: [{ $ref: "#/$defs/Thing" }],
      type: "object",
      properties: { t: { type: "string" } },
    },
  };
  const orders = [
    ["Response", "Thing", "Action"],
    ["Response", "Action", "Thing"],
    ["Thing", "Response", "Action"],
    ["Thing", "Action", "Response"],
    ["Action", "Thing", "Response"],
    ["Action", "Response", "Thing"],
  ];

  it("renders in every order of the three definitions once the cycle is split at a named type", async () => {
    for (const order of orders) {
      const root: JsonSchema = {
        type: "object",
        $defs: Object.fromEntries(order.map((k) => [k, structuredClone(schemas[k])])),
      };
      expect(splitCyclicIntersections(root)).toBe(2);
      const code = await compile(root as never, "Root", { bannerComment: "", unreachableDefinitions: true });
      expect(code).toContain("export type Thing = Response &");
      expect(code).toContain("export type Action = Thing &");
    }
  });

  it("generates a package that compiles strict, and says which version the package got", async () => {
    const out = join(scratchDir("allof-cycle"), "pkg");
    const result = await generate(join(FIXTURES, "allof-cycle.yaml"), out);
    expect(result.diagnostics).toEqual([]);
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", out, "--noEmit"], {
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(JSON.parse(readFileSync(join(out, "package.json"), "utf8")).version).toBe("0.0.0");
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
      "API version `2015-04-01` (the package is versioned `0.0.0`, as package.json needs semver)",
    );
  });
});

describe("the generated README", () => {
  it("lists every repair under 'Repairs made to the source document', spec text escaped", async () => {
    const out = join(scratchDir("repairs-readme"), "pkg");
    const result = await generate(join(FIXTURES, "repair-patterns.yaml"), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain("\n## Repairs made to the source document\n");
    const section = readme.slice(readme.indexOf("## Repairs made to the source document"));
    expect(section.match(/^\| `\/[^\n]*$/gm)).toHaveLength(5);
    expect(section).toContain("| `/components/schemas/ObjectGroup/pattern` |");
    expect(section).toContain("&lt;b&gt;");
    expect(section).not.toContain("<b>");
  });
});
