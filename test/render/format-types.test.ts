/**
 * json-schema-to-typescript's declarations reprinted in Biome's layout (render/format-types.ts): the
 * library's text in, the exact text out. golden-lint.large.ts runs Biome itself on such output.
 */
import { describe, expect, it } from "vitest";
import { formatTypeDeclarations } from "../../generator/render/format-types.ts";

const long = (n: number) => Array.from({ length: n }, (_, i) => `"value_number_${i}"`).join(" | ");

const cases: Array<{ given: string; roots?: string[]; input: string; want: string }> = [
  {
    given: "an interface becomes a type; parentheses and quotes go where Biome drops them",
    input: 'export interface A {\nname: string\n"tag"?: (string | null)\n"X-Id": ("a" | "b")\n}',
    want: 'export type A = {\n  name: string;\n  tag?: string | null;\n  "X-Id": "a" | "b";\n};',
  },
  {
    given: "empty object types are any object; the empty root SchemaTypes goes",
    input: "export interface SchemaTypes {\n\n}\nexport interface Empty {\n\n}\nexport type B = {\nc: {\n\n}\n}",
    want: "export type Empty = { [key: string]: unknown };\n\nexport type B = {\n  c: { [key: string]: unknown };\n};",
  },
  {
    given: "a tool type spelling out a shared type aliases it (roots never become targets)",
    roots: ["CreateOutput", "GetOutput", "OtherInput"],
    input:
      "export type Pet = (NewPet & {\nid: number\n})\nexport type CreateOutput = (NewPet & {\nid: number\n})\n" +
      "export type OtherInput = {\nx: string\n}\nexport type GetOutput = {\nx: string\n}",
    want:
      "export type Pet = NewPet & {\n  id: number;\n};\n\nexport type CreateOutput = Pet;\n\n" +
      "export type OtherInput = {\n  x: string;\n};\n\nexport type GetOutput = {\n  x: string;\n};",
  },
  {
    given: "a union too long for its line: one member a line, after `=` and after a key",
    input: `export type U = (${long(8)})\nexport interface M {\nm?: (${long(8)})\n}`,
    want:
      `export type U =\n${Array.from({ length: 8 }, (_, i) => `  | "value_number_${i}"`).join("\n")};\n\n` +
      `export type M = {\n  m?:\n${Array.from({ length: 8 }, (_, i) => `    | "value_number_${i}"`).join("\n")};\n};`,
  },
  {
    given: "an array of such a union: `(` and `)[]` around it",
    input: `export interface M {\nm: (${long(8)})[]\n}`,
    want: `export type M = {\n  m: (\n${Array.from({ length: 8 }, (_, i) => `    | "value_number_${i}"`).join("\n")}\n  )[];\n};`,
  },
  {
    given: "objects in a union: one member a line, objects aligned two further; `{ ... } | null` stays hugged",
    input: "export interface M {\na: ({\nb: string\n} | string)\nc: ({\nd: number\n} | null)\n}",
    want:
      "export type M = {\n  a:\n    | {\n        b: string;\n      }\n    | string;\n" +
      "  c: {\n    d: number;\n  } | null;\n};",
  },
  {
    given: "a tuple too long for its line, or holding objects: one element a line",
    input: `export type T = [{\na: string\n}, ...{\na: string\n}[]]`,
    want: "export type T = [\n  {\n    a: string;\n  },\n  ...{\n    a: string;\n  }[],\n];",
  },
  {
    given: "JSDoc comments re-indented; nested unions flattened; numbers and strings as Biome prints them",
    input:
      '/**\n * A thing.\n */\nexport interface C {\n/**\n * Its kind.\n */\nk: ((1E+21 | -0.50) | "say \\"hi\\"")\n}',
    want: "/**\n * A thing.\n */\nexport type C = {\n  /**\n   * Its kind.\n   */\n  k: 1e21 | -0.5 | 'say \"hi\"';\n};",
  },
  {
    given: "a name too long for the line moves under `=`",
    input: `export type ${"N".repeat(60)} = ${"M".repeat(60)}`,
    want: `export type ${"N".repeat(60)} =\n  ${"M".repeat(60)};`,
  },
  {
    given: "a layout not reproduced is printed plainly under a biome-ignore comment that says so",
    input: "export type X = (({\na: string\n} | {\nb: string\n}) & {\nc: string\n})",
    want:
      "// biome-ignore format: a layout mcpgen does not reproduce; objects expanded, the rest flat\n" +
      "export type X = ({\n  a: string;\n} | {\n  b: string;\n}) & {\n  c: string;\n};",
  },
];

describe("formatTypeDeclarations", () => {
  for (const c of cases) {
    it(c.given, () => expect(formatTypeDeclarations(c.input, new Set(c.roots ?? []))).toBe(c.want));
  }
});

describe("comments", () => {
  it("drops the library's note naming the combined root SchemaTypes, which the file does not have", () => {
    const input =
      '/**\n * A pet.\n *\n * This interface was referenced by `SchemaTypes`\'s JSON-Schema\n * via the `definition` "Pet".\n */\n' +
      "export interface Pet {\nid: number\n}\n" +
      '/**\n * This interface was referenced by `SchemaTypes`\'s JSON-Schema\n * via the `definition` "Tag".\n */\n' +
      "export interface Tag {\nid: number\n}";
    expect(formatTypeDeclarations(input, new Set())).toBe(
      "/**\n * A pet.\n */\nexport type Pet = {\n  id: number;\n};\n\nexport type Tag = {\n  id: number;\n};",
    );
  });
});
