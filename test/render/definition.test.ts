/**
 * The definition renderer: a small IR in, the exact definition and catalog out (given/want), built of the
 * runtime's own types (runtime/package/catalog-types.ts), so a definition the runtime does not read does not
 * compile. The `@ts-expect-error` lines are the type-level half: tsc fails if any of them compiles.
 */
import { describe, expect, it } from "vitest";
import type {
  PromptNode,
  ResourceNode,
  ResourceTemplateNode,
  ServerNode,
  SourceLoc,
  ToolNode,
} from "../../generator/ir.ts";
import { normalize } from "../../generator/normalize/normalize.ts";
import { catalogData, type DefinitionData, definitionData } from "../../generator/render/definition.ts";
import { connect } from "../../runtime/client/client.ts";
import type {
  CatalogTool,
  PromptMessageTemplate,
  ServerDefinition,
  UpstreamDefinition,
} from "../../runtime/package/catalog-types.ts";
import { createSpecServer } from "../../runtime/package/spec-server.ts";
import { serveHttp } from "../../runtime/transport/http/server.ts";

const at = (pointer: string): SourceLoc => ({ file: "spec.yaml", pointer, line: 1, col: 1 });

function server(parts: Partial<ServerNode>): ServerNode {
  return {
    kind: "server",
    loc: at("/server"),
    origin: "spec",
    name: "s",
    version: "1.0.0",
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...parts,
  };
}
const tool = (parts: Partial<ToolNode> & { name: string }): ToolNode => ({
  kind: "tool",
  loc: at(`/tools/${parts.name}`),
  inputSchema: { type: "object" },
  ...parts,
});
// `answersJson: false`: these cases are about bindings; `_fields` (which a JSON answer brings) has its own test.
const binding = (method: string, path: string, extra: object = {}) => ({
  kind: "httpBinding" as const,
  loc: at("/http"),
  method,
  path,
  answersJson: false,
  ...extra,
});

const NONE = { tools: false, resources: false, prompts: false, completions: false };
const EMPTY = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

const cases: Array<{ name: string; given: ServerNode; want: DefinitionData }> = [
  {
    name: "a bare server: identity only, nothing offered",
    given: server({ title: "S", loc: at("/server") }),
    want: { definition: { server: { name: "s", version: "1.0.0", title: "S" }, offers: NONE }, catalog: EMPTY },
  },
  {
    name: "fields in the listed order whatever the IR's order; undefined fields left out",
    given: server({
      tools: [
        {
          icons: [{ src: "https://i.example/t.png" }],
          annotations: { readOnlyHint: true },
          description: "d",
          inputSchema: { type: "object", properties: { a: { type: "string" } } },
          title: undefined,
          name: "t",
          loc: at("/tools/0"),
          kind: "tool",
          renamedFrom: "old_t",
        },
      ],
    }),
    want: {
      // The former name reaches the definition (for the unknown-tool error), never the catalog (tools/list).
      definition: {
        server: { name: "s", version: "1.0.0" },
        offers: { ...NONE, tools: true },
        renamed: { old_t: "t" },
      },
      catalog: {
        ...EMPTY,
        tools: [
          {
            name: "t",
            description: "d",
            inputSchema: { type: "object", properties: { a: { type: "string" } } },
            annotations: { readOnlyHint: true },
            icons: [{ src: "https://i.example/t.png" }],
          },
        ],
      },
    },
  },
  {
    name: "spec-language auth: one security scheme (its source location stays behind), required by every binding",
    given: server({
      upstream: {
        kind: "upstream",
        loc: at("/upstream"),
        baseUrl: "https://api.example/v1",
        timeoutMs: 5000,
        securitySchemes: [{ id: "upstream.auth", type: "bearer", env: "TOKEN", loc: at("/upstream/auth") }],
      },
      tools: [tool({ name: "get", http: binding("get", "/items/{id}", { security: [["upstream.auth"]] }) })],
    }),
    want: {
      definition: {
        server: { name: "s", version: "1.0.0" },
        upstream: {
          baseUrl: "https://api.example/v1",
          timeoutMs: 5000,
          securitySchemes: [{ id: "upstream.auth", type: "bearer", env: "TOKEN" }],
        },
        offers: { ...NONE, tools: true },
      },
      catalog: {
        ...EMPTY,
        tools: [
          {
            name: "get",
            inputSchema: { type: "object" },
            http: { method: "GET", path: "/items/{id}", security: [["upstream.auth"]] },
          },
        ],
      },
    },
  },
  {
    name: "OpenAPI mapping: `arg` only when not [name], body fields picked, an operation's own server kept",
    given: server({
      origin: "openapi",
      upstream: {
        kind: "upstream",
        loc: at("/servers/0"),
        baseUrl: "https://a.example",
        baseUrlTemplate: "https://{region}.example",
        variables: { region: { default: "a", env: "REGION", enum: ["a", "b"] } },
        retry: { attempts: 3, maxDelayMs: 1000 },
      },
      tools: [
        tool({
          name: "put",
          http: binding("put", "/p/{id}", {
            parameters: [
              { name: "id", in: "path", arg: ["id"] },
              { name: "q", in: "query", arg: ["query", "q"], style: "form", explode: false },
            ],
            body: { contentType: "application/json", arg: "body" },
            baseUrl: "https://other.example",
          }),
        }),
      ],
    }),
    want: {
      definition: {
        server: { name: "s", version: "1.0.0" },
        upstream: {
          baseUrl: "https://a.example",
          baseUrlTemplate: "https://{region}.example",
          variables: { region: { default: "a", env: "REGION", enum: ["a", "b"] } },
          retry: { attempts: 3, maxDelayMs: 1000 },
        },
        offers: { ...NONE, tools: true },
      },
      catalog: {
        ...EMPTY,
        tools: [
          {
            name: "put",
            inputSchema: { type: "object" },
            http: {
              method: "PUT",
              path: "/p/{id}",
              parameters: [
                { name: "id", in: "path" },
                { name: "q", in: "query", arg: ["query", "q"], style: "form", explode: false },
              ],
              body: { contentType: "application/json", arg: "body" },
              baseUrl: "https://other.example",
            },
          },
        ],
      },
    },
  },
  {
    name: "resources, templates with completions, prompts with messages and argument completions",
    given: server({
      resources: [
        {
          kind: "resource",
          loc: at("/resources/0"),
          uri: "r://t",
          name: "t",
          mimeType: "text/plain",
          content: { type: "text", text: "hi" },
        } satisfies ResourceNode,
        { kind: "resource", loc: at("/resources/1"), uri: "r://b", name: "b", content: { type: "blob", blob: "AA==" } },
      ],
      resourceTemplates: [
        {
          kind: "resourceTemplate",
          loc: at("/resourceTemplates/0"),
          uriTemplate: "r://c/{city}",
          name: "c",
          completions: { city: ["Paris"] },
        } satisfies ResourceTemplateNode,
      ],
      prompts: [
        {
          kind: "prompt",
          loc: at("/prompts/0"),
          name: "p",
          arguments: [
            {
              kind: "promptArgument",
              loc: at("/prompts/0/arguments/0"),
              name: "city",
              required: true,
              completions: ["Nice"],
            },
            { kind: "promptArgument", loc: at("/prompts/0/arguments/1"), name: "tone", required: false },
          ],
          messages: [
            {
              kind: "promptMessage",
              loc: at("/prompts/0/messages/0"),
              role: "user",
              content: { type: "text", text: "About {{city}}" },
            },
          ],
        } satisfies PromptNode,
      ],
    }),
    want: {
      definition: {
        server: { name: "s", version: "1.0.0" },
        offers: { tools: false, resources: true, prompts: true, completions: true },
      },
      catalog: {
        tools: [],
        resources: [
          { uri: "r://t", name: "t", mimeType: "text/plain", text: "hi" },
          { uri: "r://b", name: "b", blob: "AA==" },
        ],
        resourceTemplates: [{ uriTemplate: "r://c/{city}", name: "c", completions: { city: ["Paris"] } }],
        prompts: [
          {
            name: "p",
            arguments: [
              { name: "city", required: true },
              { name: "tone", required: false },
            ],
            completions: { city: ["Nice"] },
            messages: [{ role: "user", content: { type: "text", text: "About {{city}}" } }],
          },
        ],
      },
    },
  },
];

describe("definitionData: given an IR, the exact definition and catalog", () => {
  for (const { name, given, want } of cases) {
    it(name, () => {
      const got = definitionData(normalize(given, "spec.yaml"));
      expect(got).toEqual(want);
      // Key order is part of the output (golden diffs): compare the JSON text too.
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    });
  }

  it("refuses to render what the rules refuse (a non-object inputSchema, a bad prompt role)", () => {
    const badSchema = server({ tools: [tool({ name: "t", inputSchema: { type: "string" } })] });
    expect(() => definitionData(normalize(badSchema, "x"))).toThrow(/inputSchema of tool 't'/);
    const message = {
      kind: "promptMessage" as const,
      loc: at("/m"),
      role: "system",
      content: { type: "text", text: "" },
    };
    const badRole = server({
      prompts: [{ kind: "prompt", loc: at("/p"), name: "p", arguments: [], messages: [message] }],
    });
    expect(() => definitionData(normalize(badRole, "x"))).toThrow(/prompt message at \/m/);
  });
});

describe("catalogData: shared $defs stored once", () => {
  it("moves each tool's $defs to `defs` by content id and keeps the names the tool uses", () => {
    const shared = { type: "object", properties: { id: { type: "string" } } };
    const schema = (extra: object) => ({ type: "object", $defs: { Pet: shared }, ...extra });
    const pet = { $ref: "#/$defs/Pet" };
    const model = normalize(
      server({
        tools: [
          // Each uses Pet twice: a definition used once is inlined in tools/list (compact-schema.ts).
          tool({ name: "a", inputSchema: schema({ properties: { p: pet, q: pet } }) }),
          tool({
            name: "b",
            inputSchema: { type: "object" },
            outputSchema: schema({ properties: { p: pet, q: pet } }),
          }),
        ],
      }),
      "x",
    );
    const stored = catalogData(model);
    const [id] = Object.keys(stored.defs ?? {});
    expect(id).toMatch(/^d[0-9a-f]{16}$/);
    expect(stored.defs).toEqual({ [id]: shared });
    expect(stored.tools).toEqual([
      {
        name: "a",
        inputSchema: { type: "object", properties: { p: pet, q: pet } },
        inputDefs: { Pet: id },
      },
      {
        name: "b",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", properties: { p: pet, q: pet } },
        outputDefs: { Pet: id },
      },
    ]);
  });
});

describe("one contract: the generator builds what the runtime reads", () => {
  it("definitionData's value is a runtime ServerDefinition, and the runtime serves it", async () => {
    const { definition, catalog } = definitionData(normalize(cases[4].given, "x"));
    const runtimeDefinition: ServerDefinition = { ...definition, catalog: () => catalog };
    const read = () => ({ contents: [] });
    const app = createSpecServer(runtimeDefinition, { handlers: { resourceTemplates: { "r://c/{city}": read } } });
    const handle = await serveHttp(app, { host: "127.0.0.1", port: 0 });
    const client = await connect({ url: handle.url });
    try {
      const prompt = await client.getPrompt("p", { city: "Nice" });
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "About Nice" } }]);
      const read = await client.readResource("r://t");
      expect(read.contents).toEqual([{ uri: "r://t", mimeType: "text/plain", text: "hi" }]);
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it("what the runtime does not read does not compile (tsc checks the @ts-expect-error lines)", () => {
    const upstream: UpstreamDefinition = {
      baseUrl: "https://a.example",
      // @ts-expect-error credentials are security schemes; the runtime has no second `auth` form any more
      auth: { type: "bearer", env: "T" },
    };
    // @ts-expect-error a tool's inputSchema must be an object schema (MCP's Tool)
    const stringTool: CatalogTool = { name: "t", inputSchema: { type: "string" } };
    // @ts-expect-error a prompt message's role is MCP's Role, user or assistant
    const systemMessage: PromptMessageTemplate = { role: "system", content: { type: "text", text: "" } };
    // @ts-expect-error the generator's definition value has no `auth` either
    const auth = definitionData(normalize(server({}), "x")).definition.upstream?.auth;
    expect([upstream.baseUrl, stringTool.name, systemMessage.role, auth]).toEqual([
      "https://a.example",
      "t",
      "system",
      undefined,
    ]);
  });
});
