/**
 * Served tool schemas are smaller and mean the same: each reduction given/want, then argument corpora
 * validated against the original and the compacted inputSchema (same verdict on every argument), and
 * instances valid under an original outputSchema still valid under the served one. The whole of GitHub
 * and Stripe: compact-schema.large.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/build-model.ts";
import type { JsonSchema } from "../../generator/ir.ts";
import { compactSchema, cutText, firstSentence, withoutLinkTargets } from "../../generator/normalize/compact-schema.ts";
import { LARGE_INPUT_SCHEMA, listedTool } from "../../generator/normalize/listed-tool.ts";
import { servedOutputSchema } from "../../generator/normalize/loosen-output.ts";
import { shareRepeats } from "../../generator/normalize/share-repeats.ts";
import { definitionData } from "../../generator/render/definition.ts";
import { ROOT } from "../generate/support.ts";
import { checkSameMeaning, corpusOf, disagreements, type Pair, validatorOf } from "./schema-corpus.ts";

const options = { descriptionLength: 200 };
const str = { type: "string" };

describe("compactSchema: each reduction", () => {
  const cases: Array<{ why: string; given: JsonSchema; want: JsonSchema }> = [
    {
      why: "an unused definition goes (petstore's createPet carried NewPet)",
      given: { type: "object", properties: { name: str }, $defs: { NewPet: { type: "object" } } },
      want: { type: "object", properties: { name: str } },
    },
    {
      why: "a definition used once takes its reference's place",
      given: { type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "integer" } } },
      want: { type: "object", properties: { a: { type: "integer" } } },
    },
    {
      why: "a definition used twice stays",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" }, b: { $ref: "#/$defs/A" } },
        $defs: { A: { type: "integer" } },
      },
      want: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" }, b: { $ref: "#/$defs/A" } },
        $defs: { A: { type: "integer" } },
      },
    },
    {
      why: "a chain of references used once each is inlined all the way",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
        $defs: { A: { type: "array", items: { $ref: "#/$defs/B" } }, B: { type: "string" } },
      },
      want: { type: "object", properties: { a: { type: "array", items: { type: "string" } } } },
    },
    {
      why: "a definition also reached through another stays, its single-use user is inlined",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" }, b: { $ref: "#/$defs/B" } },
        $defs: { A: { type: "array", items: { $ref: "#/$defs/B" } }, B: { type: "string" } },
      },
      want: {
        type: "object",
        properties: { a: { type: "array", items: { $ref: "#/$defs/B" } }, b: { $ref: "#/$defs/B" } },
        $defs: { B: { type: "string" } },
      },
    },
    {
      why: "a recursive definition stays, even when referenced once from the root",
      given: {
        type: "object",
        properties: { tree: { $ref: "#/$defs/Node" } },
        $defs: {
          Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
        },
      },
      want: {
        type: "object",
        properties: { tree: { $ref: "#/$defs/Node" } },
        $defs: {
          Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
        },
      },
    },
    {
      why: "a reference into a definition keeps it whole",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A/properties/x" } },
        $defs: { A: { type: "object", properties: { x: str } } },
      },
      want: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A/properties/x" } },
        $defs: { A: { type: "object", properties: { x: str } } },
      },
    },
    {
      why: "keywords beside an inlined reference still apply, through allOf",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A", maxLength: 3 } },
        $defs: { A: { type: "string" } },
      },
      want: { type: "object", properties: { a: { maxLength: 3, allOf: [{ type: "string" }] } } },
    },
    {
      why: "draft-07 ignores keywords beside $ref: nothing is inlined there (unused definitions still go)",
      given: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { a: { $ref: "#/$defs/A", maxLength: 3 } },
        $defs: { A: { type: "string" }, Unused: str },
      },
      want: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { a: { $ref: "#/$defs/A", maxLength: 3 } },
        $defs: { A: { type: "string" } },
      },
    },
    {
      why: "an $anchor changes where references land: the definitions stay as they are",
      given: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
        $defs: { A: { $anchor: "a", type: "string" }, Unused: str },
      },
      want: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
        $defs: { A: { $anchor: "a", type: "string" }, Unused: str },
      },
    },
    {
      why: "titles repeating the property or definition name go, whatever the case, spaces, _ or -",
      given: {
        type: "object",
        properties: {
          pull_request: { title: "Pull Request", type: "string" },
          issueNumber: { title: "issue-number", type: "integer" },
          user: { $ref: "#/$defs/simple-user" },
          other: { $ref: "#/$defs/simple-user" },
        },
        $defs: { "simple-user": { title: "Simple User", type: "object" } },
      },
      want: {
        type: "object",
        properties: {
          pull_request: { type: "string" },
          issueNumber: { type: "integer" },
          user: { $ref: "#/$defs/simple-user" },
          other: { $ref: "#/$defs/simple-user" },
        },
        $defs: { "simple-user": { type: "object" } },
      },
    },
    {
      why: "a title whose every word the description says goes",
      given: {
        type: "object",
        properties: {
          r: { title: "Reviewer", description: "A required reviewing team: the reviewer.", type: "object" },
        },
      },
      want: {
        type: "object",
        properties: { r: { description: "A required reviewing team: the reviewer.", type: "object" } },
      },
    },
    {
      why: "a title that says something else stays",
      given: { type: "object", properties: { sha: { title: "Commit hash", type: "string" } } },
      want: { type: "object", properties: { sha: { title: "Commit hash", type: "string" } } },
    },
    {
      why: "descriptions keep their first sentence without link targets; examples their first; false defaults go",
      given: {
        type: "object",
        properties: {
          per_page: {
            type: "integer",
            description:
              'The number of results per page (max 100). For more information, see "[Pagination](https://docs.example.com/p)."',
            examples: [30, 50],
            deprecated: false,
            readOnly: false,
          },
          since: { type: "string", description: "A [timestamp](https://x.example/iso), e.g. 2024." },
        },
      },
      want: {
        type: "object",
        properties: {
          per_page: { type: "integer", description: "The number of results per page (max 100).", examples: [30] },
          since: { type: "string", description: "A timestamp, e.g. 2024." },
        },
      },
    },
    {
      why: "a property named like a keyword is a property, not a keyword",
      given: { type: "object", properties: { description: { type: "string" }, title: { title: "Title" } } },
      want: { type: "object", properties: { description: { type: "string" }, title: {} } },
    },
  ];
  it.each(cases)("$why", ({ given, want }) => {
    const before = structuredClone(given);
    expect(compactSchema(given, options)).toEqual(want);
    expect(given, "the argument is not changed").toEqual(before);
  });

  it("cuts long descriptions at a word, with an ellipsis", () => {
    const long = `${"word ".repeat(80)}end`;
    const cut = compactSchema({ type: "object", description: long }, { descriptionLength: 50 });
    expect(cut.description).toBe(`${"word ".repeat(8)}word…`);
    expect(cutText("short", 50)).toBe("short");
    expect(firstSentence("One. two")).toBe("One. two");
    expect(firstSentence("This is the first one. This is two.")).toBe("This is the first one.");
    expect(withoutLinkTargets("see [a (b)](https://x/y_(z)) and [c](d)")).toBe("see a (b) and c");
  });
});

describe("shareRepeats: a large subschema written out twice is defined once", () => {
  const categories = {
    type: "array",
    items: { type: "string", enum: Array.from({ length: 40 }, (_, i) => `category_${i}`) },
  };
  it("moves the copies to one definition named after the first property, referenced from both places", () => {
    const given = {
      type: "object",
      properties: { allowed: categories, blocked: categories, small: str, other: str },
      $defs: { allowed: { type: "integer" } },
    };
    expect(shareRepeats(given)).toEqual({
      type: "object",
      properties: {
        allowed: { $ref: "#/$defs/allowed_2" },
        blocked: { $ref: "#/$defs/allowed_2" },
        small: str,
        other: str,
      },
      $defs: { allowed: { type: "integer" }, allowed_2: categories },
    });
  });
  it("shares a copy inside the copies separately only when it also occurs elsewhere", () => {
    const given = { type: "object", properties: { a: categories, b: categories, one: categories.items } };
    expect(shareRepeats(given)).toEqual({
      type: "object",
      properties: { a: { $ref: "#/$defs/a" }, b: { $ref: "#/$defs/a" }, one: { $ref: "#/$defs/a_2" } },
      $defs: { a: { type: "array", items: { $ref: "#/$defs/a_2" } }, a_2: categories.items },
    });
  });
  it("leaves small repeats, draft-07 and schemas with $id or $anchor alone", () => {
    const twice = { type: "object", properties: { a: categories, b: categories } };
    for (const given of [
      { type: "object", properties: { a: str, b: str } },
      { $schema: "http://json-schema.org/draft-07/schema#", ...twice },
      { ...twice, properties: { ...twice.properties, c: { $anchor: "x" } } },
    ])
      expect(shareRepeats(given)).toBe(given);
  });
  it("is part of compactSchema, and the corpus verdicts stay the same", () => {
    const given = {
      type: "object",
      properties: { a: categories, b: { type: "object", properties: { c: categories } } },
    };
    const compacted = compactSchema(given, options);
    expect(JSON.stringify(compacted).length).toBeLessThan(JSON.stringify(given).length * 0.7);
    expect(disagreements(validatorOf(given), validatorOf(compacted), corpusOf(given, { instances: 20 }))).toEqual([]);
  });
});

describe("servedOutputSchema: large response schemas become a looser skeleton", () => {
  const item = {
    type: "object",
    required: ["id"],
    properties: { id: { type: "integer", description: "The id." }, tags: { type: "array", items: str } },
  };
  const big = {
    type: "object",
    required: ["items"],
    description: "A page.",
    properties: {
      items: { type: "array", items: { $ref: "#/$defs/Item" } },
      kind: {
        oneOf: [
          { type: "string", enum: ["a"] },
          { type: "string", minLength: 2 },
        ],
      },
      next: { $ref: "#/$defs/Page" },
    },
    $defs: {
      Item: item,
      Page: { type: "object", properties: { next: { $ref: "#/$defs/Page" }, x: { not: { type: "string" } } } },
    },
  };

  it("keeps a schema that fits the budget compacted, not loosened", () => {
    expect(servedOutputSchema(big, options, 10_000)).toEqual(compactSchema(big, options));
  });

  it("gives the deepest skeleton that fits: names and types, anyOf for oneOf, no required, no not", () => {
    expect(servedOutputSchema(big, options, 250)).toEqual({
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object" } },
        kind: { anyOf: [{ type: "string", enum: ["a"] }, { type: "string" }] },
        next: { type: "object", properties: { next: { type: "object" }, x: {} } },
      },
    });
    // Below any budget, still the top level's names and types.
    const top = servedOutputSchema(big, options, 1);
    expect(Object.keys(top.properties as object)).toEqual(["items", "kind", "next"]);
  });

  it("accepts every instance the original accepts (a recursive schema included)", () => {
    const served = servedOutputSchema(big, options, 250);
    const original = validatorOf(big);
    const loose = validatorOf(served);
    const corpus = corpusOf(big, { instances: 20 });
    const accepted = corpus.filter((instance) => original(instance));
    expect(accepted.length).toBeGreaterThan(5);
    expect(accepted.filter((instance) => !loose(instance))).toEqual([]);
  });
});

describe("prototype names stay own properties", () => {
  // JSON.parse makes "__proto__" an own key, as a parsed spec has it; an assignment would set a prototype.
  const big = `{"type":"string","enum":[${Array.from({ length: 60 }, (_, i) => `"v${i}"`).join(",")}]}`;
  const given = JSON.parse(
    `{"type":"object","required":["__proto__"],"properties":{"__proto__":{"$ref":"#/$defs/__proto__"},"constructor":${big},"toString":${big}},"$defs":{"__proto__":{"type":"string","title":"proto"}}}`,
  ) as JsonSchema;
  it.each([
    ["compactSchema", () => compactSchema(given, options)],
    ["servedOutputSchema", () => servedOutputSchema(given, options, 1)],
  ])("%s", (_name, compact) => {
    const out = compact();
    const properties = out.properties as JsonSchema;
    expect(Object.keys(properties)).toEqual(["__proto__", "constructor", "toString"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "string" });
  });
  it("a repeated copy under a prototype name gets a definition name that is not one", () => {
    const out = compactSchema(given, options);
    expect(Object.keys(out.$defs as object)).toEqual(["constructor_"]);
    expect((out.properties as Record<string, JsonSchema>).toString).toEqual({ $ref: "#/$defs/constructor_" });
  });
});

describe("listedTool", () => {
  it("drops a first paragraph repeating the title, link targets, and annotations.title equal to the title", () => {
    const listed = listedTool(
      {
        title: "Get an issue",
        description: "Get an issue\n\nSee [the docs](https://docs.example.com/issues).",
        annotations: { title: "Get an issue", readOnlyHint: true },
        inputSchema: { type: "object" },
      },
      options,
    );
    expect(listed).toEqual({
      inputSchema: { type: "object" },
      description: "See the docs.",
      annotations: { readOnlyHint: true },
    });
  });

  it("leaves out hints that have MCP's default value, and annotations that end up empty", () => {
    const hints = (annotations: object) =>
      listedTool({ title: "T", annotations, inputSchema: { type: "object" } }, options).annotations;
    expect(hints({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true })).toEqual({
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(hints({ title: "T", openWorldHint: true, destructiveHint: true, idempotentHint: false })).toBeUndefined();
    expect(hints({ title: "Other", openWorldHint: false })).toEqual({ title: "Other", openWorldHint: false });
  });

  it("cuts descriptions at 60 characters in an input schema over LARGE_INPUT_SCHEMA characters", () => {
    const first = "A long description that goes on and on for quite a while, longer than sixty characters.";
    const text = `${first} And more.`;
    const properties = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: "string", description: text }]),
    );
    const listed = listedTool({ inputSchema: { type: "object", properties } }, options);
    expect(JSON.stringify(listed.inputSchema).length).toBeLessThan(LARGE_INPUT_SCHEMA);
    expect((listed.inputSchema.properties as Record<string, JsonSchema>).p0.description).toBe(
      "A long description that goes on and on for quite a while,…",
    );
    const small = listedTool({ inputSchema: { type: "object", properties: { p: properties.p0 } } }, options);
    expect((small.inputSchema.properties as Record<string, JsonSchema>).p.description).toBe(first);
  });
});

// ---- Same meaning, shown on corpora -------------------------------------------------------------

function toolsOf(spec: string): Pair[] {
  const { model, diagnostics } = buildModel(spec);
  expect(model, diagnostics.map((d) => d.message).join("\n")).toBeDefined();
  return model!.tools.map(({ node }) => ({
    name: node.name,
    inputSchema: node.inputSchema,
    ...(node.outputSchema ? { outputSchema: node.outputSchema } : {}),
  }));
}

describe("same meaning: argument corpora against original and compacted schemas", () => {
  const specs = [
    "specs/petstore.yaml",
    "bench/specs/petstore.openapi.yaml",
    "specs/notes.yaml",
    "specs/weather.yaml",
    "specs/conformance.yaml",
    "specs/tasks.json",
  ];
  it.each(specs)("%s", (spec) => {
    expect(checkSameMeaning(toolsOf(join(ROOT, spec)))).toEqual([]);
  });

  it("GitHub and Stripe operations (test/normalize/fixtures/api-tool-schemas.json)", () => {
    const tools = JSON.parse(
      readFileSync(join(ROOT, "test/normalize/fixtures/api-tool-schemas.json"), "utf8"),
    ) as Pair[];
    expect(checkSameMeaning(tools, { instances: 6, cap: 500 })).toEqual([]);
  });

  it("the corpora mix accepted and refused arguments (so the comparison means something)", () => {
    const tools = JSON.parse(
      readFileSync(join(ROOT, "test/normalize/fixtures/api-tool-schemas.json"), "utf8"),
    ) as Pair[];
    for (const tool of tools) {
      const validate = validatorOf(tool.inputSchema);
      const verdicts = corpusOf(tool.inputSchema).map((instance) => validate(instance));
      expect(verdicts.filter(Boolean).length, `${tool.name} accepts some`).toBeGreaterThan(0);
      expect(verdicts.filter((v) => !v).length, `${tool.name} refuses some`).toBeGreaterThan(0);
    }
  });
});

describe("same meaning on random schemas (fast-check)", () => {
  const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 100), 2_000);
  const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123;
  const name = fc.constantFrom("a", "b", "c", "__proto__", "constructor");
  const ref = fc.constantFrom("#/$defs/A", "#/$defs/B", "#/$defs/C");
  const leaf = fc.oneof(
    fc.constant({ type: "string", maxLength: 3 }),
    fc.constant({ type: "integer", minimum: 0, maximum: 5, title: "A", description: "One. Two [x](y)." }),
    fc.constant({ enum: ["x", 1, null] }),
    fc.constant({ type: ["string", "null"], examples: ["a", "b"], deprecated: false }),
    ref.map(($ref) => ({ $ref })),
    ref.map(($ref) => ({ $ref, minProperties: 1 })),
  );
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, leaf, tie("object"), tie("list"), tie("array")),
    object: fc.dictionary(name, tie("node"), { maxKeys: 3 }).chain((properties) =>
      fc.record({
        type: fc.constant("object"),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
        additionalProperties: fc.boolean(),
        title: fc.constantFrom("a", "Other"),
      }),
    ),
    list: fc
      .tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.array(tie("node"), { minLength: 1, maxLength: 3 }))
      .map(([keyword, members]) => ({ [keyword]: members })),
    array: tie("node").map((items) => ({ type: "array", items, maxItems: 2 })),
  }));
  const schema = fc.record({ root: node, A: node, B: node, C: node, big: node }).map(({ root, A, B, C, big }) => {
    // A large subschema written twice, for shareRepeats.
    const repeated = { type: "object", properties: { x: big, pad: { enum: Array.from({ length: 40 }, (_, i) => i) } } };
    // z: a reference into a definition, which keeps it whole.
    const properties = JSON.parse(
      JSON.stringify({ r: root, p: repeated, q: repeated, z: { $ref: "#/$defs/B/properties/b" } }),
    );
    // Each definition an object, so every cycle of references passes through a property (the rules
    // refuse the others: SCHEMA_REF_CYCLE).
    const wrap = (key: string, sub: unknown) => ({ type: "object", properties: { [key]: sub } });
    return { type: "object", properties, $defs: { A: wrap("a", A), B: wrap("b", B), C: wrap("c", C) } } as JsonSchema;
  });

  it(
    "gives every argument of a corpus the same verdict",
    () => {
      fc.assert(
        fc.property(schema, (given) => {
          const compacted = compactSchema(given, options);
          const found = disagreements(
            validatorOf(given),
            validatorOf(compacted),
            corpusOf(given, { instances: 4, cap: 200 }),
          );
          expect(found).toEqual([]);
          const original = validatorOf(given);
          const served = validatorOf(servedOutputSchema(given, options, 300));
          expect(corpusOf(given, { seed: 2, instances: 4, cap: 200 }).filter((i) => original(i) && !served(i))).toEqual(
            [],
          );
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    30_000 + RUNS * 200,
  );
});

describe("what tools/list serves", () => {
  it("petstore's createPet no longer carries the unreferenced $defs.NewPet", () => {
    const { model } = buildModel(join(ROOT, "specs/petstore.yaml"));
    const createPet = definitionData(model!).catalog.tools.find((t) => t.name === "createPet")!;
    expect(createPet.inputSchema.$defs).toBeUndefined();
    expect(JSON.stringify(createPet.inputSchema)).not.toContain("NewPet");
    // Types and validators still compile the IR's schema.
    expect(model!.tools.find((t) => t.node.name === "createPet")!.node.inputSchema.$defs).toBeDefined();
  });
});
