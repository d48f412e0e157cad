/**
 * Issue 11, item 9: property, argument and parameter names that are also Object.prototype's
 * (`constructor`, `toString`, `hasOwnProperty`, `__proto__`). Real generated servers over stdio:
 * optional prototype-named properties may be left out, `__proto__` keys are refused (ajv cannot check
 * them), completion and prompts look names up on their own keys only, and an OpenAPI document with
 * such parameter names generates and reaches a real upstream with exactly the arguments given.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect, type McpClient } from "../../runtime/index.ts";
import { scratchDir, serverCommand, startUpstream } from "../generate/support.ts";

const dir = scratchDir("prototype-names");

const spec: { [key: string]: unknown } = {
  server: { name: "protonames", version: "1.0.0" },
  tools: [
    {
      name: "echo",
      description: "Echoes its arguments.",
      inputSchema: {
        type: "object",
        properties: {
          constructor: { type: "object" },
          toString: { type: "string" },
          hasOwnProperty: { type: "integer" },
          name: { type: "string" },
        },
      },
    },
    {
      name: "proto",
      description: "Declares a __proto__ string.",
      inputSchema: { type: "object", properties: { proto__placeholder: { type: "string" } } },
    },
    // A const holding a __proto__ key: the compiled validator must keep the key (results are checked).
    {
      name: "const_proto",
      description: "Returns x: {} against a const of { __proto__: 1 }.",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { x: { const: { proto__placeholder: 1 } } }, required: ["x"] },
    },
    // Tools named like prototype members: their handler and validator tables are keyed by these names.
    ...["__proto__", "toString"].map((name) => ({
      name,
      description: `The tool ${name}.`,
      inputSchema: { type: "object", properties: { n: { type: "string", maxLength: 2 } } },
    })),
  ],
  prompts: [
    {
      name: "greet",
      description: "Greets.",
      arguments: [
        { name: "constructor", description: "required, no completions", required: true },
        { name: "__proto__", description: "completions", completions: ["gamma"] },
        { name: "who", description: "completions", completions: ["alice", "bob"] },
      ],
      messages: [{ role: "user", content: { type: "text", text: "hi {{constructor}} {{who}}" } }],
    },
  ],
};

const ECHO = `export default async function (args: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text: JSON.stringify(args) }], structuredContent: { keys: Object.keys(args) } };
}
`;

type Completion = { completion: { values: string[] } };

describe("a generated server with prototype-named properties and arguments", () => {
  let client: McpClient;
  beforeAll(async () => {
    // In an object literal `__proto__:` sets the prototype, so the key is written into the JSON text instead.
    const file = join(dir, "spec.json");
    writeFileSync(file, JSON.stringify(spec).replaceAll('"proto__placeholder"', '"__proto__"'));
    const out = join(dir, "spec-out");
    const result = await generate(file, out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    writeFileSync(join(out, "src/handlers/tools/echo.ts"), ECHO);
    writeFileSync(join(out, "src/handlers/tools/proto.ts"), ECHO);
    writeFileSync(join(out, "src/handlers/tools/__proto__.ts"), ECHO);
    writeFileSync(
      join(out, "src/handlers/tools/const_proto.ts"),
      "export default async () => ({ content: [], structuredContent: { x: {} } });\n",
    );
    writeFileSync(join(out, "src/handlers/tools/toString.ts"), ECHO);
    client = await connect(serverCommand(out));
  }, 120_000);
  afterAll(() => client?.close());

  it("accepts a call that leaves out the optional constructor, toString and hasOwnProperty", async () => {
    const result = await client.callTool("echo", { name: "x" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ keys: ["name"] });
  });

  it("still checks constructor, toString and hasOwnProperty when they are given", async () => {
    const result = await client.callTool("echo", { constructor: "text", toString: 5, hasOwnProperty: "x" });
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text).toContain("/constructor must be object");
    expect(text).toContain("/toString must be string");
    expect(text).toContain("/hasOwnProperty must be integer");
    const valid = await client.callTool("echo", { constructor: { a: 1 }, toString: "s", hasOwnProperty: 3 });
    expect(valid.isError).toBeFalsy();
  });

  it("refuses a __proto__ key, top-level or nested, whatever the schema says", async () => {
    for (const args of ['{"__proto__": 5}', '{"__proto__": "a string"}', '{"constructor": {"__proto__": {"x": 1}}}']) {
      const result = await client.callTool(args.includes("constructor") ? "echo" : "proto", JSON.parse(args));
      expect(result.isError, args).toBe(true);
      expect(JSON.stringify(result.content), args).toMatch(/__proto__: a property named __proto__ is not accepted/);
    }
  });

  it("serves tools named __proto__ and toString with their own handlers and validators", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "proto", "const_proto", "__proto__", "toString"]);
    for (const name of ["__proto__", "toString"]) {
      const ok = await client.callTool(name, { n: "ab" });
      expect(ok.structuredContent, name).toEqual({ keys: ["n"] });
      const tooLong = await client.callTool(name, { n: "abc" });
      expect(JSON.stringify(tooLong.content), name).toContain("/n must NOT have more than 2 characters");
    }
  });

  it("checks a const holding a __proto__ key as data: {} does not match it", async () => {
    const result = await client.callTool("const_proto", {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("/x must be equal to constant");
  });

  it("completes prototype-named arguments from their own lists only", async () => {
    const complete = (name: string, value = "") =>
      client.request("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name, value },
      }) as Promise<Completion>;
    expect((await complete("constructor")).completion.values).toEqual([]);
    expect((await complete("toString")).completion.values).toEqual([]);
    expect((await complete("hasOwnProperty")).completion.values).toEqual([]);
    expect((await complete("valueOf")).completion.values).toEqual([]);
    expect((await complete("__proto__")).completion.values).toEqual(["gamma"]);
    expect((await complete("who", "a")).completion.values).toEqual(["alice"]);
  });

  it("reports a missing required argument named constructor, and fills it when given", async () => {
    await expect(client.getPrompt("greet", {})).rejects.toThrow(/Missing required arguments.*constructor/);
    const prompt = await client.getPrompt("greet", { constructor: "C", who: "bob" });
    expect(JSON.stringify(prompt.messages)).toContain("hi C bob");
  });
});

describe("an OpenAPI document with prototype-named parameters", () => {
  let api: Awaited<ReturnType<typeof startUpstream>>;
  let client: McpClient;
  let diagnostics: Array<{ code: string; severity: string }>;

  beforeAll(async () => {
    api = await startUpstream({
      "GET /v1/items/*": () => ({ json: { constructor: "made", valueOf: 1 } }),
      "POST /v1/things": () => ({ json: { ok: true } }),
      "GET /v1/people": () => ({ json: { ok: true } }),
    });
    const doc = {
      openapi: "3.0.3",
      info: { title: "Proto", version: "1.0.0", "x-mcp-registry-name": "io.github.mcpgen-examples/proto" },
      // A server variable named __proto__ too: the base URL is filled from it.
      servers: [{ url: `${api.url}/{proto__placeholder}`, variables: { proto__placeholder: { default: "v1" } } }],
      paths: {
        "/items/{constructor}": {
          get: {
            operationId: "getItem",
            parameters: [
              { name: "constructor", in: "path", required: true, schema: { type: "string" } },
              { name: "proto__placeholder", in: "query", schema: { type: "string" } },
              { name: "toString", in: "query", schema: { type: "string" } },
              { name: "hasOwnProperty", in: "header", schema: { type: "string" } },
              { name: "valueOf", in: "cookie", schema: { type: "string" } },
            ],
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { constructor: { type: "string" }, valueOf: { type: "integer" } },
                    },
                  },
                },
              },
            },
          },
        },
        // A tool named `constructor`: its validator, handler and header map are looked up by that name.
        "/people": {
          get: {
            operationId: "constructor",
            parameters: [{ name: "name", in: "query", schema: { type: "string", maxLength: 3 } }],
            responses: { "200": { description: "ok" } },
          },
        },
        "/things": {
          post: {
            operationId: "makeThing",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { constructor: { type: "string" }, toString: { type: "integer" } },
                    required: ["toString"],
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc).replaceAll("proto__placeholder", "__proto__"));
    const out = join(dir, "openapi-out");
    const result = await generate(file, out);
    diagnostics = result.diagnostics;
    client = await connect(serverCommand(out));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it("generates with no error and no false diagnostic (only the __proto__ parameter is named)", () => {
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(["SCHEMA_PROTO_PROPERTY"]);
  });

  it("lists every parameter under its own name, with the body's required property", async () => {
    const { tools } = await client.listTools();
    const getItem = tools.find((t) => t.name === "getItem");
    expect(Object.keys(getItem?.inputSchema.properties ?? {})).toEqual([
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "valueOf",
      "_fields", // field selection (issue 14): added beside them, none of them lost
    ]);
    const makeThing = tools.find((t) => t.name === "makeThing");
    expect(makeThing?.inputSchema.required).toEqual(["toString"]);
  });

  it("sends exactly the arguments given: nothing found through a prototype", async () => {
    const result = await client.callTool("getItem", { constructor: "a" });
    expect(result.isError).toBeFalsy();
    const sent = api.requests.at(-1)!;
    expect(sent.path).toBe("/v1/items/a");
    expect([...sent.query.keys()]).toEqual([]);
    expect(sent.headers.hasownproperty).toBeUndefined();
    expect(sent.headers.cookie).toBeUndefined();
    await client.callTool("getItem", { constructor: "b", toString: "t", hasOwnProperty: "h", valueOf: "v" });
    const second = api.requests.at(-1)!;
    expect(`${second.path}?${second.query}`).toBe("/v1/items/b?toString=t");
    expect(second.headers.hasownproperty).toBe("h");
    expect(second.headers.cookie).toBe("valueOf=v");
    const body = await client.callTool("makeThing", { toString: 3 });
    expect(body.isError).toBeFalsy();
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ toString: 3 });
    const missing = await client.callTool("makeThing", {});
    expect(JSON.stringify(missing.content)).toContain("must have required property 'toString'");
  });

  it("serves a tool named constructor with its own schema and validator", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "constructor");
    expect(tool?.inputSchema.properties).toEqual({ name: { type: "string", maxLength: 3 } });
    const tooLong = await client.callTool("constructor", { name: "toolong" });
    expect(JSON.stringify(tooLong.content)).toContain("/name must NOT have more than 3 characters");
    const ok = await client.callTool("constructor", { name: "abc" });
    expect(ok.isError).toBeFalsy();
    expect(api.requests.at(-1)?.query.get("name")).toBe("abc");
  });
});
