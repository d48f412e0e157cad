/**
 * The OpenAPI 3.1 and Swagger 2.0 test documents end to end through Prism: oneOf bodies, grouped
 * arguments when a path and a query parameter share a name, deepObject queries, recursive schemas,
 * Swagger's body/formData parameters, `collectionFormat: multi` and basic auth.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { type RunningHttpServer, scratchDir, startHttpServer } from "../generate/support.ts";
import { type Prism, startPrism } from "./prism.ts";

type Result = { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: unknown };
type Client = {
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: Record<string, unknown> }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
};
const expectOk = (result: Result) => expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
const FIXTURES = join(import.meta.dirname, "fixtures");

function endToEnd(file: string, env: Record<string, string>) {
  const state: { prism?: Prism; server?: RunningHttpServer; client?: Client } = {};
  beforeAll(async () => {
    const out = scratchDir("openapi");
    const result = await generate(join(FIXTURES, file), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    state.prism = await startPrism(join(FIXTURES, file));
    state.server = await startHttpServer(out, ["--base-url", state.prism.url], env);
    const { connect } = (await import(join(out, "src/client.ts"))) as { connect(o: { url: string }): Promise<Client> };
    state.client = await connect({ url: state.server.url });
  });
  afterAll(async () => {
    await state.client?.close();
    await state.server?.stop();
    await state.prism?.stop();
  });
  return state as Required<typeof state>;
}

describe("OpenAPI 3.1: oneOf, nullable, recursion", () => {
  const s = endToEnd("shapes-3.1.yaml", {});

  it("keeps oneOf bodies whole and recursion as $defs references", async () => {
    const { tools } = await s.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // Shape is used once: tools/list serves it in its reference's place (compact-schema.ts).
    const shape = byName.createShape.inputSchema as { properties: { body: object }; $defs?: object };
    expect(Object.keys(shape.properties)).toEqual(["body", "_fields"]);
    expect(shape.properties.body).toHaveProperty("oneOf");
    expect(shape.$defs).toBeUndefined();
    const tree = byName.putTree.inputSchema as { properties: Record<string, unknown>; $defs: Record<string, unknown> };
    expect(Object.keys(tree.properties).sort()).toEqual(["_fields", "children", "filter", "name"]);
    expect(tree.$defs.Node).toMatchObject({ properties: { children: { items: { $ref: "#/$defs/Node" } } } });
    expect(Object.keys(byName.getShape.inputSchema.properties as object)).toEqual(["path", "query", "_fields"]);
  });

  it("calls each tool with Prism-validated requests", async () => {
    expectOk(await s.client.callTool("createShape", { body: { kind: "circle", radius: 2, label: null } }));
    expectOk(await s.client.callTool("getShape", { path: { id: "a1" }, query: { id: "q" } }));
    const tree = { name: "root", children: [{ name: "leaf", children: [] }] };
    expectOk(await s.client.callTool("putTree", { ...tree, filter: { depth: 2 } }));
  });
  it("turns an answer that breaks the outputSchema into an error that still shows the answer", async () => {
    const result = await s.client.callTool("drift", {});
    expect(result.isError).toBe(true);
    const text = result.content?.map((c) => c.text).join("\n") ?? "";
    expect(text).toContain("does not match this tool's outputSchema");
    expect(text).toContain("no id here");
  });
});

describe("Swagger 2.0: body and formData parameters, collectionFormat, basic auth", () => {
  const s = endToEnd("library-swagger2.yaml", { LIBRARY_BASIC: "reader:secret" });

  it("calls each tool with Prism-validated requests", async () => {
    expectOk(await s.client.callTool("listBooks", { authors: ["Le Guin", "Calvino"], year: 1972 }));
    expectOk(await s.client.callTool("addBook", { isbn: "978-0", title: "Invisible Cities", subtitle: null }));
    expectOk(await s.client.callTool("reviewBook", { isbn: "978-0", stars: 5, comment: "wonderful" }));
  });

  it("never leaks the credential into an error", async () => {
    const result = await s.client.callTool("listBooks", { year: 1 } as never);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain("secret");
  });
});
