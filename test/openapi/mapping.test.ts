/**
 * The OpenAPI mapping rules (docs/openapi.md#mapping-rules), one by one, on small documents: names,
 * descriptions, input/output schemas, annotations, selection, x-mcp, schema conversion, `$ref`s, and
 * every OPENAPI_* diagnostic with its file:line:col.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import type { ServerNode, ToolNode } from "../../generator/ir.ts";
import { load } from "../../generator/load.ts";
import type { OpenApiOptions } from "../../generator/openapi/options.ts";
import { Ajv2020 } from "../../generator/schema/ajv.ts";
import { validate } from "../../generator/validate.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const dir = scratchDir("openapi-mapping");
let counter = 0;

function write(text: string, name = `doc${counter++}.yaml`): string {
  const file = join(dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}

function run(text: string, openapi: OpenApiOptions = {}) {
  const file = write(text);
  const bag = new DiagnosticBag();
  const loaded = load(file, bag, { openapi });
  if (loaded) validate(loaded.server, loaded.report);
  const diagnostics = bag.sorted().map((d) => ({ code: d.code, at: `${d.line}:${d.col}`, pointer: d.pointer }));
  return { server: loaded?.server as ServerNode, diagnostics, file };
}

const head =
  "openapi: 3.0.3\ninfo: { title: Test API, version: 1.0.0 }\nservers: [{ url: 'https://api.example.com' }]\n";
const tool = (server: ServerNode, name: string) => server.tools.find((t) => t.name === name) as ToolNode;
const ok = "responses: { '200': { description: ok } }";

describe("names", () => {
  it("come from operationId, else method + path, made MCP-valid", () => {
    const { server } = run(`${head}paths:
  /repos/{owner}/{repo}:
    get: { operationId: "repos/get", ${ok} }
    delete: { ${ok} }
`);
    expect(server.tools.map((t) => t.name)).toEqual(["repos_get", "delete_repos_by_owner_by_repo"]);
  });

  it("are cut to 64 characters with a stable hash, or to the configured limit", () => {
    const long = "a".repeat(100);
    const doc = `${head}paths:\n  /x:\n    get: { operationId: ${long}, ${ok} }\n`;
    const first = run(doc).server.tools[0].name;
    expect(first).toHaveLength(64);
    expect(first).toMatch(/^a+_\d{8}$/);
    expect(run(doc).server.tools[0].name).toBe(first);
    const config = write("maxNameLength: 100\n", "names.yaml");
    expect(run(doc, { config }).server.tools[0].name).toHaveLength(100);
  });

  it("never collide: every holder of a clashing name gets its own hash", () => {
    const { server, diagnostics } = run(`${head}paths:
  /a: { get: { operationId: "list", ${ok} } }
  /b: { get: { operationId: "list!", ${ok} } }
`);
    const names = server.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(2);
    expect(names.every((n) => /^list_\d{8}$/.test(n))).toBe(true);
    expect(diagnostics).toEqual([]);
  });

  it("x-mcp.name overrides, and is checked like any tool name", () => {
    const { server, diagnostics } = run(`${head}paths:
  /a: { get: { operationId: a, x-mcp: { name: "bad name" }, ${ok} } }
`);
    expect(server.tools[0].name).toBe("bad name");
    expect(diagnostics.map((d) => d.code)).toEqual(["NAME_INVALID"]);
  });
});

describe("descriptions", () => {
  it("join summary and description, and are cut at the cap with a warning", () => {
    const config = write("maxDescriptionLength: 40\n", "desc.yaml");
    const { server, diagnostics } = run(
      `${head}paths:\n  /a:\n    get:\n      operationId: a\n      summary: Short\n      description: ${"word ".repeat(20)}\n      ${ok}\n`,
      { config },
    );
    expect(server.tools[0].description?.startsWith("Short\n\nword")).toBe(true);
    expect(server.tools[0].description?.length).toBeLessThanOrEqual(40);
    expect(diagnostics).toEqual([
      { code: "OPENAPI_DESCRIPTION_CUT", at: "9:20", pointer: "/paths/~1a/get/description" },
    ]);
  });
});

describe("outputSchema size", () => {
  it("leaves out a response schema over maxOutputSchemaBytes, with a warning", () => {
    const config = write("maxOutputSchemaBytes: 200\n", "output-cap.yaml");
    const big = `{ type: object, properties: { ${Array.from({ length: 20 }, (_, i) => `field${i}: { type: string }`).join(", ")} } }`;
    const doc = `${head}paths:\n  /big:\n    get:\n      operationId: big\n      responses: { '200': { description: ok, content: { application/json: { schema: ${big} } } } }\n  /small:\n    get:\n      operationId: small\n      responses: { '200': { description: ok, content: { application/json: { schema: { type: object, properties: { a: { type: string } } } } } } }\n`;
    const { server, diagnostics } = run(doc, { config });
    expect(tool(server, "big").outputSchema).toBeUndefined();
    expect(tool(server, "small").outputSchema).toMatchObject({ type: "object" });
    expect(diagnostics).toEqual([
      { code: "OPENAPI_OUTPUT_SCHEMA_DROPPED", at: "8:18", pointer: "/paths/~1big/get/responses" },
    ]);
  });
});

describe("inputSchema", () => {
  const params = `parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
        - { name: limit, in: query, required: true, schema: { type: integer } }
        - { name: X-Trace, in: header, schema: { type: string } }
        - { name: session, in: cookie, schema: { type: string } }`;

  it("an optional body's required fields stay required once any body field is sent, and the document is told", () => {
    const { server, diagnostics } = run(`${head}paths:
  /keys:
    post:
      operationId: addKey
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [name, public_key], properties: { name: { type: string }, public_key: { type: string }, labels: { type: object } } }
      ${ok}
  /keys/{id}:
    put:
      operationId: putKey
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
      ${ok}
  /nested:
    post:
      operationId: nested
      requestBody:
        content:
          application/json:
            schema: { allOf: [{ type: object, required: [a], properties: { a: { type: string } } }], required: [a] }
      ${ok}
`);
    const schema = tool(server, "addKey").inputSchema;
    expect(schema.required).toBeUndefined();
    expect(schema.dependentRequired).toEqual({
      name: ["public_key"],
      public_key: ["name"],
      labels: ["name", "public_key"],
    });
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile(schema);
    expect([{}, { name: "a", public_key: "k" }, { labels: {} }, { name: "a" }].map((args) => check(args))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // A required body is required as before; a body that is not flattened keeps its own required list.
    expect(tool(server, "putKey").inputSchema.dependentRequired).toBeUndefined();
    expect(tool(server, "putKey").inputSchema.required).toEqual(["id", "name"]);
    expect(diagnostics).toEqual([
      { code: "OPENAPI_OPTIONAL_BODY_REQUIRED_FIELDS", at: "9:9", pointer: "/paths/~1keys/post/requestBody" },
      { code: "OPENAPI_OPTIONAL_BODY_REQUIRED_FIELDS", at: "27:9", pointer: "/paths/~1nested/post/requestBody" },
    ]);
  });

  it("is flattened when no names collide; required flags kept", () => {
    const { server } = run(`${head}paths:
  /items/{id}:
    put:
      operationId: put
      ${params}
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } }
      ${ok}
`);
    const t = tool(server, "put");
    expect(Object.keys(t.inputSchema.properties as object)).toEqual(["id", "limit", "X-Trace", "session", "name"]);
    expect(t.inputSchema.required).toEqual(["id", "limit", "name"]);
    expect(t.http?.body).toEqual({ contentType: "application/json", properties: ["name"] });
  });

  it("is grouped by location when names collide", () => {
    const { server } = run(`${head}paths:
  /items/{id}:
    put:
      operationId: put
      ${params}
      requestBody:
        content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } }
      ${ok}
`);
    const t = tool(server, "put");
    expect(Object.keys(t.inputSchema.properties as object)).toEqual(["path", "query", "header", "cookie", "body"]);
    expect(t.inputSchema.required).toEqual(["path", "query"]);
    expect(t.http?.parameters?.[0]).toEqual({ name: "id", in: "path", arg: ["path", "id"] });
  });

  it("marks x-mcp-header parameters (from the document or the config), validated by the same rules", () => {
    const config = write("headers: { a: { region: Region } }\n", "headers.yaml");
    const { server, diagnostics } = run(
      `${head}paths:
  /a:
    get:
      operationId: a
      parameters:
        - { name: region, in: query, schema: { type: string } }
        - { name: tenant, in: query, x-mcp-header: "bad header", schema: { type: string } }
      ${ok}
`,
      { config },
    );
    const props = tool(server, "a").inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.region["x-mcp-header"]).toBe("Region");
    expect(diagnostics.map((d) => d.code)).toEqual(["HEADER_NOT_TOKEN"]);
  });
});

describe("outputSchema and annotations", () => {
  it("come from the 2xx JSON object response and the method", () => {
    const { server } = run(`${head}paths:
  /a:
    get:
      operationId: obj
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object, properties: { n: { type: integer } } } } } } }
    post:
      operationId: arr
      responses: { '201': { description: ok, content: { application/json: { schema: { type: array } } } } }
    delete: { operationId: del, ${ok} }
    put: { operationId: put, ${ok} }
    patch: { operationId: pat, x-mcp: { annotations: { destructiveHint: false } }, ${ok} }
  /b:
    post: { operationId: harmless, x-mcp: { annotations: { destructiveHint: false, idempotentHint: true } }, ${ok} }
`);
    expect(tool(server, "obj").outputSchema).toEqual({ type: "object", properties: { n: { type: "integer" } } });
    expect(tool(server, "arr").outputSchema).toBeUndefined();
    expect(tool(server, "obj").annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    // A POST the document says nothing about is MCP's default for a tool that writes: destructive, not
    // idempotent (code mode asks before running it); only the document's own x-mcp hints claim less.
    expect(tool(server, "arr").annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(tool(server, "harmless").annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(tool(server, "del").annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tool(server, "put").annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tool(server, "pat").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });
});

describe("servers", () => {
  it("take the first server, its variables' defaults, and an operation's own server", () => {
    const { server } = run(`openapi: 3.0.3
info: { title: S, version: 1.0.0 }
servers: [{ url: "https://{region}.example.com/v1", variables: { region: { default: eu, enum: [eu, us] } } }]
paths:
  /a: { get: { operationId: a, ${ok} } }
  /up: { post: { operationId: up, servers: [{ url: "https://uploads.example.com" }], ${ok} } }
`);
    expect(server.upstream).toMatchObject({
      baseUrl: "https://eu.example.com/v1",
      baseUrlTemplate: "https://{region}.example.com/v1",
      variables: { region: { default: "eu", env: "S_SERVER_REGION", enum: ["eu", "us"] } },
    });
    expect(tool(server, "a").http?.baseUrl).toBeUndefined();
    expect(tool(server, "up").http?.baseUrl).toBe("https://uploads.example.com");
  });
});

describe("selecting the surface", () => {
  const doc = `${head}paths:
  /pets: { get: { operationId: listPets, tags: [pets], ${ok} }, post: { operationId: addPet, tags: [pets], ${ok} } }
  /admin/users: { delete: { operationId: dropUsers, tags: [admin], ${ok} } }
  /secret: { get: { operationId: secret, x-mcp: { exclude: true }, ${ok} } }
`;
  const names = (options: OpenApiOptions) => run(doc, options).server.tools.map((t) => t.name);

  it("by tag, operationId, path glob and method, from flags or a config file; x-mcp.exclude always wins", () => {
    expect(names({})).toEqual(["listPets", "addPet", "dropUsers"]);
    expect(names({ include: ["tag:pets"] })).toEqual(["listPets", "addPet"]);
    expect(names({ exclude: ["method:POST", "path:/admin/**"] })).toEqual(["listPets"]);
    expect(names({ include: ["op:*Pet*"] })).toEqual(["listPets", "addPet"]);
    const config = write("include: ['path:/admin/*']\n", "select.yaml");
    expect(names({ config })).toEqual(["dropUsers"]);
  });

  it("reports bad selectors and a config file's mistakes at file:line:col", () => {
    const config = write("include: ['colour:red']\nmaxNameLength: 500\n", "bad-config.yaml");
    expect(run(doc, { config }).diagnostics).toEqual([
      { code: "OPENAPI_CONFIG_INVALID", at: "1:11", pointer: "/include/0" },
      { code: "OPENAPI_CONFIG_INVALID", at: "2:16", pointer: "/maxNameLength" },
    ]);
    expect(run(doc, { include: ["nope"] }).diagnostics.map((d) => d.code)).toEqual(["OPENAPI_CONFIG_INVALID"]);
  });

  it("refuses more tools than maxTools (5,000 by default), pointing at the selectors", () => {
    const config = write("maxTools: 2\n", "max-tools.yaml");
    expect(run(doc, { config }).diagnostics).toEqual([
      { code: "OPENAPI_TOO_MANY_TOOLS", at: "4:1", pointer: "/paths" },
    ]);
    expect(run(doc, { config, include: ["tag:pets"] }).diagnostics).toEqual([]);
  });

  it("serves a GET as a resource template with x-mcp.resourceTemplate", () => {
    const { server } = run(`${head}paths:
  /files/{path}: { get: { operationId: file, x-mcp: { resourceTemplate: true }, parameters: [{ name: path, in: path, required: true, schema: { type: string } }], ${ok} } }
`);
    expect(server.tools).toEqual([]);
    expect(server.resourceTemplates[0]).toMatchObject({ uriTemplate: "test-api://files/{path}", name: "file" });
  });
});

describe("schemas", () => {
  it("become JSON Schema 2020-12: nullable, example, discriminator, exclusive bounds, readOnly", () => {
    const { server, diagnostics } = run(`${head}paths:
  /a:
    post:
      operationId: a
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                id: { type: integer, readOnly: true }
                n: { type: number, minimum: 0, exclusiveMinimum: true, example: 3 }
                s: { type: string, nullable: true, enum: [a, b] }
                pet: { oneOf: [{ $ref: "#/components/schemas/Cat" }], discriminator: { propertyName: kind } }
              required: [id, n]
      ${ok}
components:
  schemas:
    Cat: { type: object, properties: { kind: { type: string } } }
`);
    expect(diagnostics).toEqual([]);
    const t = tool(server, "a");
    expect(t.inputSchema.properties).toEqual({
      n: { type: "number", exclusiveMinimum: 0, examples: [3] },
      s: { type: ["string", "null"], enum: ["a", "b", null] },
      pet: { oneOf: [{ $ref: "#/$defs/Cat" }] },
    });
    expect(t.inputSchema.required).toEqual(["n"]);
    expect(t.inputSchema.$defs).toEqual({ Cat: { type: "object", properties: { kind: { type: "string" } } } });
  });

  it("keep recursion finite, as $defs references", () => {
    const { server } = run(`${head}paths:
  /tree: { get: { operationId: tree, responses: { '200': { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Node" } } } } } } }
components:
  schemas:
    Node: { type: object, properties: { kids: { type: array, items: { $ref: "#/components/schemas/Node" } } } }
`);
    const out = tool(server, "tree").outputSchema as Record<string, unknown>;
    expect(out.properties).toEqual({ kids: { type: "array", items: { $ref: "#/$defs/Node" } } });
    expect(JSON.stringify(out).length).toBeLessThan(300);
  });
});

describe("$refs and diagnostics", () => {
  it("resolves local file refs", () => {
    write("type: object\nproperties: { name: { type: string } }\n", "pet.yaml");
    const { server, diagnostics } = run(`${head}paths:
  /p: { post: { operationId: p, requestBody: { content: { application/json: { schema: { $ref: "./pet.yaml" } } } }, ${ok} } }
`);
    expect(diagnostics).toEqual([]);
    expect(Object.keys(tool(server, "p").inputSchema.properties as object)).toEqual(["name"]);
  });

  it("refuses network refs unless allowed (no SSRF)", () => {
    const doc = `${head}paths:
  /p: { post: { operationId: p, requestBody: { content: { application/json: { schema: { $ref: "http://127.0.0.1:9/x.yaml" } } } }, ${ok} } }
`;
    expect(run(doc).diagnostics.map((d) => d.code)).toEqual(["OPENAPI_REMOTE_REF"]);
  });

  it("reports a missing target at its file:line:col and JSON pointer", () => {
    const { diagnostics } = run(`${head}paths:
  /p:
    get:
      operationId: p
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Nope" } } } } }
`);
    expect(diagnostics).toEqual([
      {
        code: "OPENAPI_REF_UNRESOLVED",
        at: "8:93",
        pointer: "/paths/~1p/get/responses/200/content/application~1json/schema/$ref",
      },
    ]);
  });

  it("reports unsupported versions, missing info, unusable security, no operations, relative servers", () => {
    expect(run("openapi: 2.5.0\ninfo: { title: x, version: '1' }\npaths: {}\n").diagnostics).toEqual([
      { code: "OPENAPI_VERSION_UNSUPPORTED", at: "1:10", pointer: "/openapi" },
    ]);
    expect(run("openapi: 3.0.0\ninfo: { version: '1' }\npaths: {}\n").diagnostics.map((d) => d.code)).toContain(
      "OPENAPI_INFO_REPAIRED",
    );
    expect(
      run(`openapi: 3.0.0
info: { title: x, version: 1.0.0 }
paths: {}
components: { securitySchemes: { tls: { type: mutualTLS } } }
`)
        .diagnostics.map((d) => d.code)
        .sort(),
    ).toEqual(["OPENAPI_NO_OPERATIONS", "OPENAPI_SECURITY_UNSUPPORTED", "OPENAPI_SERVER_RELATIVE"]);
  });
});

describe("the command line", () => {
  it("takes --include/--exclude/--config for OpenAPI documents", () => {
    const file = write(`${head}paths:
  /a: { get: { operationId: a, tags: [x], ${ok} }, delete: { operationId: b, tags: [x], ${ok} } }
  /c: { get: { operationId: c, ${ok} } }
`);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, encoding: "utf8" });
    const out = join(dir, "cli-out");
    const generated = cli("generate", file, "--out", out, "--include", "tag:x", "--exclude", "method:DELETE");
    expect(generated.status).toBe(0);
    expect(generated.stderr).toContain("+ tool a");
    expect(generated.stderr).not.toContain("+ tool b");
    expect(generated.stderr).not.toContain("+ tool c");
    const bad = cli("validate", file, "--include", "nonsense", "--format", "json");
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout)[0].code).toBe("OPENAPI_CONFIG_INVALID");
  });

  it("says when --config is given mcpgen's config file instead of a mapping file, and how to pass it", () => {
    const file = write(`${head}paths:\n  /a: { get: { operationId: a, ${ok} } }\n`);
    const configFile = write("export default { input: 'api.yaml', output: 'out' };\n", "other.config.ts");
    const named = write("input: api.yaml\noutput: out\n", "mcpgen.config.yaml");
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, encoding: "utf8" });
    for (const config of [configFile, named]) {
      const mixed = cli("validate", file, "--config", config, "--format", "json");
      expect(mixed.status).toBe(1);
      const [diagnostic] = JSON.parse(mixed.stdout);
      expect(diagnostic).toMatchObject({ code: "CONFIG_FLAG_MIXUP", file: "<command line>" });
      expect(diagnostic.message).toContain(`mcpgen generate --config-file ${config}`);
    }
    const mapping = write("maxTools: 10\n", "mapping.yaml");
    expect(cli("validate", file, "--config", mapping).status).toBe(0);
  });

  it("ignores Accept, Content-Type and Authorization header parameters, as OpenAPI says", () => {
    const { server } = run(`${head}paths:
  /a:
    get:
      operationId: a
      parameters: [{ name: Authorization, in: header, schema: { type: string } }, { name: q, in: query, schema: { type: string } }]
      ${ok}
`);
    expect(Object.keys(tool(server, "a").inputSchema.properties as object)).toEqual(["q"]);
  });
});
