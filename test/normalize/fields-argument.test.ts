/**
 * Issue 14 §4: which tools take `_fields` (declared in the normalize stage, so validators, types and
 * docs see it), a real `_fields` argument left alone, and the outputSchema that allows partial answers.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, type Model } from "../../generator/index.ts";
import { partialSchema } from "../../generator/normalize/fields-argument.ts";
import { scratchDir } from "../generate/support.ts";

function modelOf(spec: object): Model {
  const file = join(scratchDir("fields-argument"), "spec.json");
  writeFileSync(file, JSON.stringify(spec));
  const { model, diagnostics } = buildModel(file, { specRef: "spec.json" });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return model!;
}

const ok = (content: object) => ({ "200": { description: "ok", content } });
const openapi = {
  openapi: "3.0.3",
  info: { title: "t", version: "1.0.0" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/list": { get: { operationId: "list", responses: ok({ "application/json": { schema: { type: "array" } } }) } },
    "/text": { get: { operationId: "text", responses: ok({ "text/plain": { schema: { type: "string" } } }) } },
    "/gone": { delete: { operationId: "gone", responses: { "204": { description: "done" } } } },
    "/own": {
      get: {
        operationId: "own",
        parameters: [{ name: "_fields", in: "query", schema: { type: "string" } }],
        responses: ok({ "application/json": { schema: { type: "object", required: ["a"], properties: { a: {} } } } }),
      },
    },
    "/vendor": { get: { operationId: "vendor", responses: ok({ "application/vnd.api+json": { schema: {} } }) } },
  },
};

const declared = (model: Model) =>
  Object.fromEntries(
    model.tools.map(({ node }) => [
      node.name,
      {
        fields: (node.inputSchema.properties as Record<string, { type?: string }> | undefined)?._fields?.type ?? "-",
        binding: node.http?.fields === true,
      },
    ]),
  );

describe("_fields: which tools take it", () => {
  it("OpenAPI: operations answering JSON (vendor +json too), not text or 204; a real _fields stays the operation's", () => {
    expect(declared(modelOf(openapi))).toEqual({
      list: { fields: "array", binding: true },
      text: { fields: "-", binding: false },
      gone: { fields: "-", binding: false },
      own: { fields: "string", binding: false },
      vendor: { fields: "array", binding: true },
    });
  });

  it("the spec language: every http tool (its answer type is not stated), never a handler tool", () => {
    const model = modelOf({
      server: { name: "s", version: "1.0.0" },
      upstream: { baseUrl: "https://api.example.com" },
      tools: [
        { name: "remote", inputSchema: { type: "object" }, http: { method: "GET", path: "/x" } },
        { name: "local", inputSchema: { type: "object" } },
        {
          name: "mine",
          inputSchema: { type: "object", properties: { _fields: { type: "integer" } } },
          http: { method: "GET", path: "/y" },
        },
      ],
    });
    expect(declared(model)).toEqual({
      remote: { fields: "array", binding: true },
      local: { fields: "-", binding: false },
      mine: { fields: "integer", binding: false },
    });
  });

  it("the description stays short: every tool pays for it on every tools/list", () => {
    const model = modelOf(openapi);
    const description = (model.tools[0].node.inputSchema.properties as Record<string, { description: string }>)._fields
      .description;
    expect(description.split(/\s+/).length).toBeLessThanOrEqual(16);
  });
});

describe("partialSchema: an outputSchema that allows partial answers", () => {
  const cases: Array<{ why: string; given: object; want: object }> = [
    {
      why: "nothing required, no minimum counts, nested too",
      given: {
        type: "object",
        required: ["a"],
        minProperties: 1,
        properties: {
          a: { type: "array", minItems: 1, contains: { type: "string" }, items: { type: "object", required: ["b"] } },
        },
      },
      want: { type: "object", properties: { a: { type: "array", items: { type: "object" } } } },
    },
    {
      why: "oneOf becomes anyOf (a partial object matches several branches)",
      given: {
        oneOf: [
          { type: "object", required: ["x"] },
          { type: "object", required: ["y"] },
        ],
      },
      want: { anyOf: [{ type: "object" }, { type: "object" }] },
    },
    {
      why: "oneOf beside anyOf: both kept, under allOf",
      given: { anyOf: [{ type: "object" }], oneOf: [{ type: "object" }] },
      want: { allOf: [{ anyOf: [{ type: "object" }] }, { anyOf: [{ type: "object" }] }] },
    },
    {
      why: "not, if/then/else, dependencies and object consts go; scalar enums, types, formats stay",
      given: {
        type: "object",
        not: { required: ["z"] },
        if: { required: ["a"] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, not a promise
        then: { required: ["b"] },
        dependentRequired: { a: ["b"] },
        properties: {
          kind: { type: "string", enum: ["list"] },
          when: { type: "string", format: "date-time" },
          shape: { const: { a: 1 } },
        },
        additionalProperties: false,
      },
      want: {
        type: "object",
        properties: {
          kind: { type: "string", enum: ["list"] },
          when: { type: "string", format: "date-time" },
          shape: {},
        },
        additionalProperties: false,
      },
    },
    {
      why: "a property named like a keyword is a property",
      given: { type: "object", properties: { required: { type: "boolean" }, not: { type: "string" } } },
      want: { type: "object", properties: { required: { type: "boolean" }, not: { type: "string" } } },
    },
    {
      why: "$defs relaxed; refs kept",
      given: { $ref: "#/$defs/A", $defs: { A: { type: "object", required: ["a"] } } },
      want: { $ref: "#/$defs/A", $defs: { A: { type: "object" } } },
    },
  ];
  for (const { why, given, want } of cases) it(why, () => expect(partialSchema(given)).toEqual(want));

  it("a shared definition is relaxed once and stays one object", () => {
    const shared = { type: "object", required: ["a"] };
    const one = partialSchema({ properties: { x: shared } }) as { properties: { x: object } };
    const two = partialSchema({ properties: { y: shared } }) as { properties: { y: object } };
    expect(one.properties.x).toBe(two.properties.y);
  });
});
