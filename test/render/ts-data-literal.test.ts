/** JSON data as an object literal in Biome's layout (render/ts-data-literal.ts): a value in, the exact text out. */
import { describe, expect, it } from "vitest";
import { dataProperty } from "../../generator/render/ts-data-literal.ts";

const own = (key: string, value: unknown) => Object.defineProperty({}, key, { value, enumerable: true });

const cases: Array<{ given: string; name: string; value: unknown; want: string }> = [
  {
    given: "objects one property a line, keys quoted only where needed, short arrays on one line",
    name: "server",
    value: { name: "demo", "a-b": 1, café: true, "1": null, sizes: ["64x64", "128x128"], empty: {}, none: [] },
    want:
      '  server: {\n    "1": null,\n    name: "demo",\n    "a-b": 1,\n    café: true,\n' +
      '    sizes: ["64x64", "128x128"],\n    empty: {},\n    none: [],\n  },',
  },
  {
    given: "a long string moves under its key, unless the key is shorter than five columns",
    name: "s",
    value: { description: "d".repeat(120), src: "s".repeat(120) },
    want: `  s: {\n    description:\n      "${"d".repeat(120)}",\n    src: "${"s".repeat(120)}",\n  },`,
  },
  {
    given: "arrays of objects or of arrays one element a line; quotes as Biome picks them",
    name: "a",
    value: {
      o: [{ x: 1 }],
      p: [
        [1, 2],
        [3, 4],
      ],
      q: 'say "hi"',
    },
    want:
      "  a: {\n    o: [\n      {\n        x: 1,\n      },\n    ],\n    p: [\n      [1, 2],\n      [3, 4],\n    ],\n" +
      "    q: 'say \"hi\"',\n  },",
  },
  {
    given: "a __proto__ key stays an own key (computed form)",
    name: "x",
    value: own("__proto__", 1),
    want: '  x: {\n    ["__proto__"]: 1,\n  },',
  },
  {
    given: "a long array of numbers (Biome fills it) is left as indented JSON under biome-ignore",
    name: "n",
    value: Array.from({ length: 40 }, (_, i) => 1000 + i),
    want: `  // biome-ignore format: a layout mcpgen does not reproduce; indented JSON\n  n: [\n${Array.from(
      { length: 40 },
      (_, i) => `    ${1000 + i}`,
    ).join(",\n")}\n  ],`,
  },
];

describe("dataProperty", () => {
  for (const c of cases) it(c.given, () => expect(dataProperty(c.name, c.value, "  ")).toBe(c.want));
});
