/**
 * Parameters every operation takes (issue 33 item 9, generator/openapi/shared-parameters.ts): the optional ones
 * leave the tools' inputs and become environment variables the runtime sends with every request; a required one
 * stays on each tool; the rule's limits (an operation without it, a read-only API, few operations, a schema that
 * differs or is no scalar, the config's opt-outs); OPENAPI_SHARED_PARAMETERS; and a generated server sending the
 * configured values to a real API on 127.0.0.1.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { generate } from "../../generator/index.ts";
import type { ServerNode } from "../../generator/ir.ts";
import { load } from "../../generator/load.ts";
import type { OpenApiOptions } from "../../generator/openapi/options.ts";
import { validate } from "../../generator/validate.ts";
import { callUpstream } from "../../runtime/upstream/forward.ts";
import { toolAnswerFrom } from "../../runtime/upstream/response.ts";
import { ROOT, scratchDir, startUpstream } from "../generate/support.ts";

const dir = scratchDir("shared-parameters");
let counter = 0;

function write(text: string, name = `doc${counter++}.yaml`): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

function run(text: string, openapi: OpenApiOptions = {}) {
  const bag = new DiagnosticBag();
  const loaded = load(write(text), bag, { openapi });
  if (loaded) validate(loaded.server, loaded.report);
  return { server: loaded?.server as ServerNode, diagnostics: bag.sorted() };
}

const inputNames = (server: ServerNode) =>
  Object.fromEntries(server.tools.map((t) => [t.name, Object.keys(t.inputSchema.properties as object)]));
const sentNames = (server: ServerNode) =>
  Object.fromEntries(server.tools.map((t) => [t.name, (t.http?.parameters ?? []).map((p) => p.name)]));

/** Three operations (a read, a write, a delete) that all take alt, quotaUser and the required api-version. */
const DOC = `openapi: 3.0.3
info: { title: Shared API, version: 1.0.0 }
servers: [{ url: 'https://api.example.com' }]
paths:
  /items:
    parameters:
      - $ref: '#/components/parameters/alt'
      - $ref: '#/components/parameters/quotaUser'
      - $ref: '#/components/parameters/key'
      - { name: api-version, in: query, required: true, schema: { type: string } }
    get:
      operationId: listItems
      parameters: [{ name: limit, in: query, schema: { type: integer } }]
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }
    post:
      operationId: createItem
      requestBody: { content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }
  /items/{id}:
    parameters:
      - $ref: '#/components/parameters/alt'
      - $ref: '#/components/parameters/quotaUser'
      - $ref: '#/components/parameters/key'
      - { name: api-version, in: query, required: true, schema: { type: string } }
      - { name: id, in: path, required: true, schema: { type: string } }
    delete:
      operationId: deleteItem
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }
components:
  parameters:
    alt:
      name: alt
      in: query
      description: Data format for the response.
      schema: { type: string, enum: [json, proto] }
    quotaUser: { name: quotaUser, in: query, description: Who the quota is charged to., schema: { type: string } }
    key: { name: key, in: query, description: API key., schema: { type: string } }
`;

describe("detection", () => {
  it("moves the optional parameters every operation takes to the upstream, keeps the required one per tool", () => {
    const { server, diagnostics } = run(DOC);
    expect(inputNames(server)).toEqual({
      listItems: ["api-version", "limit"],
      createItem: ["api-version", "name"],
      deleteItem: ["api-version", "id"],
    });
    expect(sentNames(server)).toEqual({
      listItems: ["api-version", "limit"],
      createItem: ["api-version"],
      deleteItem: ["api-version", "id"],
    });
    expect(server.upstream?.sharedParameters).toEqual([
      {
        name: "alt",
        in: "query",
        env: "SHARED_API_PARAM_ALT",
        description: "Data format for the response.",
        enum: ["json", "proto"],
        pointer: "/components/parameters/alt",
      },
      {
        name: "quotaUser",
        in: "query",
        env: "SHARED_API_PARAM_QUOTA_USER",
        description: "Who the quota is charged to.",
        pointer: "/components/parameters/quotaUser",
      },
      {
        name: "key",
        in: "query",
        env: "SHARED_API_PARAM_KEY",
        secret: true,
        description: "API key.",
        pointer: "/components/parameters/key",
      },
    ]);
    const note = diagnostics.filter((d) => d.code === "OPENAPI_SHARED_PARAMETERS");
    expect(note).toHaveLength(1);
    expect(note[0]).toMatchObject({ severity: "info", pointer: "/components/parameters/alt" });
    // At the key of the component that declares alt.
    expect(DOC.split("\n")[note[0].line - 1]).toMatch(/^ {4}alt:/);
    expect(note[0].message).toBe(
      "3 optional parameters are on all 3 operations and left out of every tool's input: alt (SHARED_API_PARAM_ALT), quotaUser (SHARED_API_PARAM_QUOTA_USER), key (SHARED_API_PARAM_KEY); required on every operation, so kept on each tool: api-version",
    );
    expect(note[0].hint).toContain("sharedParameters: false");
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
  });

  it("moves nothing one operation lacks or declares otherwise, nothing of a read-only API or of fewer than three operations", () => {
    const lacking = DOC.replace(
      "      - { name: id, in: path",
      "      - { name: quotaUser, in: query, schema: { type: integer } }\n      - { name: id, in: path",
    ).replace(/( {2}\/items\/\{id\}:\n {4}parameters:\n)( {6}- \$ref: '#\/components\/parameters\/alt'\n)/, "$1");
    expect(run(lacking).server.upstream?.sharedParameters?.map((p) => p.name)).toEqual(["key"]);

    const reads = DOC.replace("    post:", "    head:").replace("    delete:", "    get:");
    const readOnly = run(reads);
    expect(readOnly.server.upstream?.sharedParameters).toBeUndefined();
    expect(inputNames(readOnly.server).listItems).toContain("alt");

    const two = run(DOC.replace(/ {2}\/items\/\{id\}:[\s\S]*?(?=components:)/, ""));
    expect(two.server.tools).toHaveLength(2);
    expect(two.server.upstream?.sharedParameters).toBeUndefined();
    expect(two.diagnostics.map((d) => d.code)).not.toContain("OPENAPI_SHARED_PARAMETERS");
  });

  it("keeps a parameter whose schema is no scalar, or that a header mirrors", () => {
    const list = DOC.replace(
      "schema: { type: string, enum: [json, proto] }",
      "schema: { type: array, items: { type: string } }",
    );
    expect(run(list).server.upstream?.sharedParameters?.map((p) => p.name)).toEqual(["quotaUser", "key"]);
    const mirrored = DOC.replace(
      "in: query, description: API key.,",
      "in: query, x-mcp-header: X-Key, description: API key.,",
    );
    expect(run(mirrored).server.upstream?.sharedParameters?.map((p) => p.name)).toEqual(["alt", "quotaUser"]);
  });

  it("the config keeps them all (sharedParameters: false) or some (keep), and refuses another value", () => {
    const off = run(DOC, { config: write("sharedParameters: false\n", "off.yaml") });
    expect(off.server.upstream?.sharedParameters).toBeUndefined();
    expect(inputNames(off.server).deleteItem).toEqual(["alt", "quotaUser", "key", "api-version", "id"]);
    const keep = run(DOC, { config: write("sharedParameters: { keep: [alt] }\n", "keep.yaml") });
    expect(keep.server.upstream?.sharedParameters?.map((p) => p.name)).toEqual(["quotaUser", "key"]);
    expect(inputNames(keep.server).deleteItem).toEqual(["alt", "api-version", "id"]);
    const bad = run(DOC, { config: write("sharedParameters: [alt]\n", "bad.yaml") });
    expect(bad.diagnostics.filter((d) => d.code === "OPENAPI_CONFIG_INVALID").map((d) => d.message)).toEqual([
      "sharedParameters must be true, false or { keep: [parameter names] } (names that stay on each tool)",
    ]);
  });
});

describe("the runtime", () => {
  let api: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    api = await startUpstream({
      "GET /items": (r) => ({ json: { query: r.query.toString(), trace: r.headers["x-trace"] ?? null } }),
      "DELETE /items/*": () => ({ json: {} }),
      "POST /items": () => ({ json: {} }),
    });
  });
  afterAll(() => api?.close());

  it("sends each set variable's value as its query parameter or header, and redacts a secret one", async () => {
    const upstream = {
      baseUrl: api.url,
      sharedParameters: [
        { name: "alt", in: "query" as const, env: "ALT" },
        { name: "key", in: "query" as const, env: "KEY", secret: true as const },
        { name: "X-Trace", in: "header" as const, env: "TRACE" },
        { name: "unset", in: "query" as const, env: "UNSET" },
      ],
    };
    const binding = { method: "GET", path: "/items", parameters: [{ name: "limit", in: "query" as const }] };
    const env = { ALT: "json", KEY: "k-secret-123", TRACE: "t 1" };
    const response = await callUpstream(upstream, binding, { limit: 2 }, new AbortController().signal, env);
    const sent = api.requests.at(-1)!;
    expect(sent.query.toString()).toBe("limit=2&alt=json&key=k-secret-123");
    expect(sent.headers["x-trace"]).toBe("t 1");
    // The API echoes its query: the key's value does not reach the tool result.
    const text = JSON.stringify(toolAnswerFrom(response).result);
    expect(text).toContain("alt=json");
    expect(text).not.toContain("k-secret-123");
    // A job's poll URL that already carries one keeps its own.
    await callUpstream(upstream, binding, {}, new AbortController().signal, env, { url: `${api.url}/items?alt=proto` });
    expect(api.requests.at(-1)!.query.toString()).toBe("alt=proto&key=k-secret-123");
  });
});

describe("a generated server", () => {
  const pkg = join(dir, "pkg");
  let api: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    const result = await generate(write(DOC, "shared.yaml"), pkg, { features: [] });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    api = await startUpstream({ "DELETE /items/*": () => ({ json: { deleted: true } }) });
  }, 120_000);
  afterAll(() => api?.close());

  async function deleteItem(env: Record<string, string>) {
    const client = new Client({ name: "shared-parameters", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", join(pkg, "src/server.ts"), "--base-url", api.url],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", ...env },
        stderr: "pipe",
      }),
    );
    try {
      const tools = await client.listTools();
      const input = tools.tools.find((t) => t.name === "deleteItem")?.inputSchema;
      expect(Object.keys(input?.properties ?? {})).toEqual(["api-version", "id", "_fields"]);
      const result = await client.callTool({ name: "deleteItem", arguments: { id: "7", "api-version": "2024" } });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
    } finally {
      await client.close();
    }
    return api.requests.at(-1)!;
  }

  it("sends the configured values upstream, and nothing for a variable left unset", async () => {
    const configured = await deleteItem({ SHARED_API_PARAM_ALT: "json", SHARED_API_PARAM_QUOTA_USER: "team a" });
    expect([configured.method, configured.path]).toEqual(["DELETE", "/items/7"]);
    expect(configured.query.toString()).toBe("api-version=2024&alt=json&quotaUser=team+a");
    const bare = await deleteItem({});
    expect(bare.query.toString()).toBe("api-version=2024");
  }, 60_000);

  it("documents each variable once, in the README, server.json and (a credential) the MCPB manifest", () => {
    const readme = readFileSync(join(pkg, "README.md"), "utf8");
    expect(readme).toContain(
      "| `SHARED_API_PARAM_ALT` | query parameter `alt` sent with every request when set (one of `json`, `proto`): Data format for the response. |",
    );
    const serverJson = JSON.parse(readFileSync(join(pkg, "server.json"), "utf8"));
    const vars = serverJson.packages[0].environmentVariables as Array<{ name: string; isSecret: boolean }>;
    expect(vars.filter((v) => v.name.startsWith("SHARED_API_PARAM_"))).toMatchObject([
      { name: "SHARED_API_PARAM_ALT", isSecret: false },
      { name: "SHARED_API_PARAM_QUOTA_USER", isSecret: false },
      { name: "SHARED_API_PARAM_KEY", isSecret: true },
    ]);
    // The MCPB installer asks for the credential only; the others keep the API's defaults.
    const manifest = JSON.parse(readFileSync(join(pkg, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.user_config ?? {}).filter((k) => k.startsWith("shared_api_param_"))).toEqual([
      "shared_api_param_key",
    ]);
    expect(manifest.user_config.shared_api_param_key).toMatchObject({
      title: "key (query parameter)",
      sensitive: true,
    });
    expect(manifest.server.mcp_config.env.SHARED_API_PARAM_KEY).toBe(`\${user_config.shared_api_param_key}`);
  });
});

describe("a hostile shared parameter", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is part of the payload
  const PAYLOAD = "x*/ process.exit(77); /*`${process.exit(77)}`</script><img src=x onerror=alert(1)> | a |\n# Heading";
  const doc = DOC.replace(
    "    key: { name: key, in: query, description: API key., schema: { type: string } }",
    `    key: { name: ${JSON.stringify(`k${PAYLOAD}`)}, in: query, description: ${JSON.stringify(PAYLOAD)}, schema: { type: string, enum: [${JSON.stringify(PAYLOAD)}] } }`,
  );
  const pkg = join(dir, "hostile");
  let api: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    const result = await generate(write(doc, "hostile.yaml"), pkg, { features: [] });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    api = await startUpstream({ "POST /items": () => ({ json: {} }) });
  }, 120_000);
  afterAll(() => api?.close());

  it("is one escaped README row, and its value is sent under its own name", async () => {
    const readme = readFileSync(join(pkg, "README.md"), "utf8");
    const rows = readme.split("\n").filter((line) => line.includes("SHARED_API_PARAM_K"));
    expect(rows).toHaveLength(1);
    // In code spans (the name, the allowed value) it is text; outside them (the description) it is escaped.
    const prose = rows[0].replace(/(`+)[\s\S]*?\1/g, "");
    expect(prose).not.toMatch(/[<>]|(?<!\\)`/);
    expect(prose).toContain("&lt;img src=x onerror=alert\\(1\\)&gt;");
    expect(rows[0].split(/(?<!\\)\|/)).toHaveLength(4); // | variable | used for |: no cell of its own
    expect(readme).not.toContain("\n# Heading");
    const env = readFileSync(join(pkg, "src/definition.ts"), "utf8").match(
      /env: "(SHARED_API_PARAM_K[A-Z0-9_]*)"/,
    )?.[1];
    expect(env).toMatch(/^SHARED_API_PARAM_KX_PROCESS_EXIT_77_/);
    const client = new Client({ name: "shared-parameters", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", join(pkg, "src/server.ts"), "--base-url", api.url],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", [env as string]: "v&1" },
        stderr: "pipe",
      }),
    );
    try {
      const result = await client.callTool({ name: "createItem", arguments: { "api-version": "1", name: "n" } });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(api.requests.at(-1)!.query.get(`k${PAYLOAD}`)).toBe("v&1");
  }, 60_000);
});
