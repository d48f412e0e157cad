// The apps feature's server side over real HTTP and stdio, in both eras: every client sees each tool's view named
// in its `_meta` (`ui.resourceUri`, the legacy key), as the extension's own server helper names it; only a client
// that takes the MCP Apps extension sees the ui:// resources listed. resources/read answers one self-contained page.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect } from "../../../../runtime/client/client.ts";
import { appsFeature } from "../../../../runtime/features/apps/feature.ts";
import { dynamicFeature } from "../../../../runtime/features/dynamic/feature.ts";
import type { Catalog } from "../../../../runtime/package/catalog-types.ts";
import { createSpecServer } from "../../../../runtime/package/spec-server.ts";
import { serveHttp } from "../../../../runtime/transport/http/server.ts";

const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const HOSTILE = '</script><img src=x onerror="alert(1)">';
const uri = (tool: string) => `ui://views-test/${tool}`;
const meta = (tool: string) => ({ ui: { resourceUri: uri(tool) }, "ui/resourceUri": uri(tool) });

const catalog = (): Catalog => ({
  tools: [
    {
      name: "list_items",
      title: HOSTILE,
      inputSchema: { type: "object" },
      _meta: { ...meta("list_items"), "com.example/keep": true },
      view: {
        kind: "table",
        items: "items",
        columns: [{ key: "id", label: "Id", format: "integer" }],
        open: { tool: "get_item", label: "Open", args: { id: { from: "row", key: "id" } } },
      },
    },
    {
      name: "get_item",
      inputSchema: { type: "object", properties: { id: { type: "integer" } } },
      _meta: meta("get_item"),
      view: { kind: "html", html: "<!doctype html><p>mine</p>" },
    },
    { name: "plain", inputSchema: { type: "object" } },
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [],
});

const handlers = {
  list_items: () => ({
    content: [{ type: "text" as const, text: "1 item" }],
    structuredContent: { items: [{ id: 1 }] },
  }),
  get_item: () => ({ content: [{ type: "text" as const, text: "item 1" }] }),
  plain: () => ({ content: [] }),
};

const servers: Array<() => Promise<void>> = [];
async function serve(mode: "all" | "dynamic" = "all") {
  const definition = { server: { name: "views-test", version: "1.0.0" }, offers: { tools: true }, catalog };
  const features = [appsFeature, dynamicFeature];
  const server = createSpecServer(definition, { handlers: { tools: handlers as never }, features, mode });
  const handle = await serveHttp(server, { port: 0 });
  servers.push(() => handle.close());
  return handle.url;
}
let url: string;
beforeAll(async () => {
  url = await serve();
});
afterAll(() => Promise.all(servers.map((close) => close())));

describe.each(["2026-07-28", "2025-11-25"])("%s", (protocolVersion) => {
  test("a client with the extension sees the views in tools/list and resources/list", async () => {
    const client = await connect({ url }, { protocolVersion, capabilities: UI });
    const { tools } = await client.request("tools/list", {});
    const listed = Object.fromEntries((tools as Array<{ name: string; _meta?: unknown }>).map((t) => [t.name, t]));
    expect(listed.list_items._meta).toEqual({ ...meta("list_items"), "com.example/keep": true });
    expect(listed.plain._meta).toBeUndefined();
    const { resources } = await client.request("resources/list", {});
    expect(resources).toEqual([
      expect.objectContaining({ uri: uri("list_items"), mimeType: "text/html;profile=mcp-app" }),
      expect.objectContaining({ uri: uri("get_item"), mimeType: "text/html;profile=mcp-app" }),
    ]);
    expect(client.server.capabilities.extensions?.["io.modelcontextprotocol/ui"]).toEqual({
      mimeTypes: ["text/html;profile=mcp-app"],
    });
    await client.close();
  });

  test("a client without it sees the same tools, no views in resources/list, and calls them alike", async () => {
    const client = await connect({ url }, { protocolVersion });
    const { tools } = await client.request("tools/list", {});
    const listed = Object.fromEntries((tools as Array<{ name: string; _meta?: unknown }>).map((t) => [t.name, t]));
    expect(listed.list_items._meta).toEqual({ ...meta("list_items"), "com.example/keep": true });
    expect((await client.request("resources/list", {})).resources).toEqual([]);
    expect((await client.callTool("list_items", {})).structuredContent).toEqual({ items: [{ id: 1 }] });
    await client.close();
  });

  test("resources/read answers the page: the spec's mime type, an empty CSP, the config as inert JSON", async () => {
    const client = await connect({ url }, { protocolVersion, capabilities: UI });
    const read = await client.request("resources/read", { uri: uri("list_items") });
    const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string; _meta: unknown }>;
    expect(content).toMatchObject({ uri: uri("list_items"), mimeType: "text/html;profile=mcp-app" });
    expect(content._meta).toEqual({ ui: { csp: {}, prefersBorder: true } });
    expect(content.text.startsWith("<!doctype html>")).toBe(true);
    // The hostile title is text in <title> and an escaped string in the JSON, never markup.
    expect(content.text).not.toContain(HOSTILE);
    expect(content.text).toContain("<title>&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</title>");
    const json = /<script type="application\/json" id="mcpgen-view">(.*?)<\/script>/s.exec(content.text)?.[1];
    expect(JSON.parse(json ?? "")).toMatchObject({ server: "views-test", tool: "list_items", title: HOSTILE });
    // The user's own page is served as is.
    const own = await client.request("resources/read", { uri: uri("get_item") });
    expect((own.contents as Array<{ text: string }>)[0].text).toBe("<!doctype html><p>mine</p>");
    await client.close();
  });
});

test("dynamic mode: describe_tools shows the view's URI, and call_tool has a view that shows the called tool's", async () => {
  const client = await connect({ url: await serve("dynamic") }, { capabilities: UI });
  const { tools } = await client.request("tools/list", {});
  const callTool = (tools as Array<{ name: string; _meta?: unknown }>).find((tool) => tool.name === "call_tool");
  expect(callTool?._meta).toEqual(meta("call_tool"));
  const described = await client.callTool("describe_tools", { names: ["list_items"] });
  expect(JSON.stringify(described)).toContain(uri("list_items"));
  const read = await client.request("resources/read", { uri: uri("call_tool") });
  const text = (read.contents as Array<{ text: string }>)[0].text;
  expect(text).toContain('"dispatch":true');
  await client.close();
});

describe.each(["2026-07-28", "2025-11-25"])("stdio, %s: generated/petstore's views", (protocolVersion) => {
  test("named to every client, listed only to one with the extension; the page read over stdio", async () => {
    const target = {
      command: process.execPath,
      args: ["--import", "tsx", "generated/petstore/src/server.ts"],
      env: { PETSTORE_API_KEY: "k" },
    };
    const viewing = await connect(target, { protocolVersion, capabilities: UI });
    const plain = await connect(target, { protocolVersion });
    try {
      const listPets = async (client: typeof viewing) =>
        ((await client.request("tools/list", {})).tools as Array<{ name: string; _meta?: unknown }>).find(
          (tool) => tool.name === "listPets",
        );
      expect((await listPets(viewing))?._meta).toEqual({
        ui: { resourceUri: "ui://petstore/listPets" },
        "ui/resourceUri": "ui://petstore/listPets",
      });
      expect((await listPets(plain))?._meta).toEqual((await listPets(viewing))?._meta);
      const read = await viewing.request("resources/read", { uri: "ui://petstore/listPets" });
      expect((read.contents as Array<{ mimeType: string }>)[0].mimeType).toBe("text/html;profile=mcp-app");
      expect((await plain.request("resources/list", {})).resources).toEqual([]);
    } finally {
      await viewing.close();
      await plain.close();
    }
  });
});
