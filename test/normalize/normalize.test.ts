/**
 * normalize decides every name of the package and which schema definitions are shared, once, for
 * both front ends: a small spec in (through buildModel, the real load → validate → normalize), the
 * exact decisions out.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, type Model } from "../../generator/index.ts";
import { scratchDir } from "../generate/support.ts";

/** The model of a spec written as JSON (both front ends read JSON), with no diagnostics at all. */
function modelOf(spec: object): Model {
  const file = join(scratchDir("normalize"), "spec.json");
  writeFileSync(file, JSON.stringify(spec));
  const { model, diagnostics } = buildModel(file, { specRef: "spec.json" });
  expect(diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  return model!;
}

const object = { type: "object" };
const FIELDS = {
  type: "array",
  items: { type: "string" },
  description: 'Only these fields, e.g. ["id","user.login"]',
};
const server = { name: "demo", version: "1.0.0" };
const tool = (name: string, extra: object = {}) => ({ name, inputSchema: object, ...extra });

/** The names normalize chose, in the shape the tables below spell out. */
function names(model: Model) {
  return {
    tools: model.tools.map((t) => ({
      name: t.node.name,
      types: [t.inputType, t.outputType ?? "-"],
      validators: [t.validateInput, t.validateOutput ?? "-"],
      handler: t.handler ? [t.handler.file, t.handler.importName, t.handler.formerFile ?? "-"] : "-",
    })),
    prompts: model.prompts.map((p) => ({ name: p.node.name, args: p.argsType, handler: p.handler?.importName ?? "-" })),
  };
}

describe("normalize: every name decided once", () => {
  const cases: Array<{ why: string; given: object; want: ReturnType<typeof names> }> = [
    {
      why: "a tool name becomes PascalCase type names, validator names and a handler file of its own name",
      given: { server, tools: [tool("get-forecast", { outputSchema: object })] },
      want: {
        tools: [
          {
            name: "get-forecast",
            types: ["GetForecastInput", "GetForecastOutput"],
            validators: ["validateGetForecastInput", "validateGetForecastOutput"],
            handler: ["src/handlers/tools/get-forecast.ts", "toolGetForecast", "-"],
          },
        ],
        prompts: [],
      },
    },
    {
      why: "names the generated files declare themselves (ToolMap, PromptMap) are steered around",
      given: { server, tools: [tool("tool_map")], prompts: [{ name: "prompt-map", messages: [] }] },
      want: {
        tools: [
          {
            name: "tool_map",
            types: ["ToolMap2Input", "-"],
            validators: ["validateToolMap2Input", "-"],
            handler: ["src/handlers/tools/tool_map.ts", "toolToolMap", "-"],
          },
        ],
        prompts: [{ name: "prompt-map", args: "PromptMap2PromptArgs", handler: "-" }],
      },
    },
    {
      why: "two names with the same PascalCase form: the first keeps it, the second is numbered",
      given: { server, tools: [tool("a.b"), tool("a_b")] },
      want: {
        tools: [
          {
            name: "a.b",
            types: ["ABInput", "-"],
            validators: ["validateABInput", "-"],
            handler: ["src/handlers/tools/a.b.ts", "toolAB", "-"],
          },
          {
            name: "a_b",
            types: ["AB2Input", "-"],
            validators: ["validateAB2Input", "-"],
            handler: ["src/handlers/tools/a_b.ts", "toolAB2", "-"],
          },
        ],
        prompts: [],
      },
    },
    {
      why: "a prompt named like a tool gets its own type name; handler imports differ by kind",
      given: { server, tools: [tool("greet")], prompts: [{ name: "greet" }] },
      want: {
        tools: [
          {
            name: "greet",
            types: ["GreetInput", "-"],
            validators: ["validateGreetInput", "-"],
            handler: ["src/handlers/tools/greet.ts", "toolGreet", "-"],
          },
        ],
        prompts: [{ name: "greet", args: "Greet2PromptArgs", handler: "promptGreet" }],
      },
    },
    {
      why: "a tool forwarded over http has no handler; a renamed one remembers its former handler file",
      given: {
        server,
        upstream: { baseUrl: "https://api.example.com" },
        tools: [tool("fetch", { http: { method: "GET", path: "/x" } }), tool("hello", { renamedFrom: "hi" })],
      },
      want: {
        tools: [
          { name: "fetch", types: ["FetchInput", "-"], validators: ["validateFetchInput", "-"], handler: "-" },
          {
            name: "hello",
            types: ["HelloInput", "-"],
            validators: ["validateHelloInput", "-"],
            handler: ["src/handlers/tools/hello.ts", "toolHello", "src/handlers/tools/hi.ts"],
          },
        ],
        prompts: [],
      },
    },
  ];
  for (const { why, given, want } of cases) {
    it(why, () => {
      expect(names(modelOf(given))).toEqual(want);
    });
  }
});

/** The sharing decisions, with every shared definition's URI written as `shared:<its type name>`. */
function sharing(model: Model) {
  const { schemas, shared } = model.toolSchemas;
  const typeOf = new Map(shared.map((def) => [def.id, def.typeName]));
  const readable = (schema: object) =>
    JSON.parse(
      JSON.stringify(schema).replace(
        /https:\/\/mcpgen\.invalid\/defs\/(\w+)/g,
        (_, id: string) => `shared:${typeOf.get(id)}`,
      ),
    );
  return {
    shared: shared.map((def) => ({ typeName: def.typeName, schema: readable(def.schema) })),
    schemas: schemas.map((s) => ({
      tool: s.tool,
      type: s.typeName,
      validator: s.validatorName,
      schema: readable(s.schema),
      own: s.ownTypeNames,
      uses: s.uses.map((id) => typeOf.get(id)).sort(),
      source: s.source,
    })),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { "application/json": { schema } } });
/** An OpenAPI document whose operations reach these component schemas. */
const openapi = (paths: object, schemas: object) => ({
  openapi: "3.1.0",
  info: { title: "Pets", version: "1.0.0" },
  servers: [{ url: "https://api.example.com" }],
  paths,
  components: { schemas },
});

describe("normalize: definition sharing decided once", () => {
  it("spec language: each tool schema is compiled as written, its own $defs its own (named <Type>_<Name>)", () => {
    const inputSchema = { type: "object", properties: { city: { $ref: "#/$defs/city" } }, $defs: { city: object } };
    const model = modelOf({ server, tools: [tool("forecast", { inputSchema, outputSchema: object })] });
    expect(sharing(model)).toEqual({
      shared: [],
      schemas: [
        {
          tool: 0,
          type: "ForecastInput",
          validator: "validateForecastInput",
          schema: inputSchema,
          own: { city: "ForecastInput_City" },
          uses: [],
          source: "/tools/0/inputSchema",
        },
        {
          tool: 0,
          type: "ForecastOutput",
          validator: "validateForecastOutput",
          schema: object,
          own: {},
          uses: [],
          source: "/tools/0/outputSchema",
        },
      ],
    });
    // Not a copy: nothing to share, nothing to rewrite.
    expect(model.toolSchemas.schemas[0].schema).toBe(model.tools[0].node.inputSchema);
  });

  it("OpenAPI: a component every tool reaches is one shared definition, named after the component", () => {
    const model = modelOf(
      openapi(
        {
          "/pets": {
            get: { operationId: "listPets", responses: { "200": { description: "ok", ...json(ref("Pet")) } } },
            post: {
              operationId: "addPet",
              requestBody: { required: true, ...json({ type: "object", properties: { pet: ref("Pet") } }) },
              responses: { "204": { description: "done" } },
            },
          },
        },
        {
          Pet: { type: "object", required: ["name"], properties: { name: { type: "string" }, owner: ref("Owner") } },
          Owner: { type: "object", properties: { id: { type: "integer" } } },
        },
      ),
    );
    const pet = {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, owner: { $ref: "shared:Owner" } },
    };
    expect(sharing(model)).toEqual({
      // In the order of the tools' $defs names (sorted, so the output does not depend on the document's order).
      shared: [
        { typeName: "Owner", schema: { type: "object", properties: { id: { type: "integer" } } } },
        { typeName: "Pet", schema: pet },
      ],
      schemas: [
        {
          tool: 0,
          type: "ListPetsInput",
          validator: "validateListPetsInput",
          // An http tool answering JSON takes `_fields` (fields-argument.test.ts); addPet answers 204.
          schema: { type: "object", properties: { _fields: FIELDS } },
          own: {},
          uses: [],
          source: "/paths/~1pets/get",
        },
        {
          tool: 0,
          type: "ListPetsOutput",
          validator: "validateListPetsOutput",
          // Partial answers (fields selected, a list cut) are allowed: nothing required.
          schema: { type: "object", properties: pet.properties },
          own: {},
          uses: ["Owner"],
          source: "/paths/~1pets/get",
        },
        {
          tool: 1,
          type: "AddPetInput",
          validator: "validateAddPetInput",
          schema: { type: "object", properties: { pet: { $ref: "shared:Pet" } } },
          own: {},
          uses: ["Owner", "Pet"],
          source: "/paths/~1pets/post",
        },
      ],
    });
  });

  it("OpenAPI: a shared definition steers around every type name the package declares, not around base names", () => {
    const model = modelOf(
      openapi(
        {
          "/a": {
            post: {
              operationId: "addPet",
              requestBody: {
                required: true,
                ...json({
                  type: "object",
                  properties: { a: ref("ToolMap"), b: ref("AddPetInput"), c: ref("AddPet"), d: ref("Schema Types") },
                }),
              },
              responses: { "204": { description: "done" } },
            },
          },
        },
        { ToolMap: object, AddPetInput: object, AddPet: object, "Schema Types": object },
      ),
    );
    expect(model.toolSchemas.shared.map((def) => def.typeName)).toEqual([
      "AddPet",
      "AddPetInput2",
      "SchemaTypes2",
      "ToolMap2",
    ]);
  });
});

describe("buildModel", () => {
  it("gives diagnostics and no model, never an exception, when there is nothing to build", () => {
    const dir = scratchDir("normalize");
    const missing = buildModel(join(dir, "nope.yaml"));
    expect([missing.model, missing.diagnostics.map((d) => [d.code, d.severity])]).toEqual([
      undefined,
      [["FILE_NOT_FOUND", "error"]],
    ]);
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ server, tools: [tool("same"), tool("same")] }));
    const invalid = buildModel(file);
    expect(invalid.model).toBeUndefined();
    expect(invalid.diagnostics.some((d) => d.severity === "error")).toBe(true);
  });

  it("names the spec in the generated headers as given, or as options.specRef says", () => {
    const file = join(scratchDir("normalize"), "spec.json");
    writeFileSync(file, JSON.stringify({ server, tools: [] }));
    expect(buildModel(file).model?.specRef).toBe(file);
    expect(buildModel(file, { specRef: "../spec.json" }).model?.specRef).toBe("../spec.json");
  });
});
