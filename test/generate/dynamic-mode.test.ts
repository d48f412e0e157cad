/**
 * `--mode dynamic` end to end (docs/large-apis.md#toolsets-and-dynamic-mode, issue 14 §2): the generated shop server driven by the
 * official SDK clients, v1 (2025 era) over stdio and Streamable HTTP and v2 pinned to 2026-07-28 over
 * HTTP. tools/list gives exactly the five dynamic tools; an agent searches, browses, describes and
 * calls through them, direct tools/call still works, and --toolsets/--read-only bound all of it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_META_KEY, LIST_PAGE_SIZE } from "../../runtime/features/dynamic/dynamic-mode.ts";
import { DYNAMIC_TOOLS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { type ConnectedClient, connectSdkV1, connectSdkV2, type Endpoint } from "../interop/sdk-clients.ts";
import { type RunningHttpServer, startHttpServer } from "./support.ts";
import { CATALOG_TOOLS, generateShop, type ShopUpstream, startShopUpstream } from "./toolsets-fixture.ts";

type Obj = Record<string, unknown>;
let pkg: string;
let upstream: ShopUpstream;
beforeAll(async () => {
  pkg = generateShop(["dynamic"]);
  upstream = await startShopUpstream();
}, 60_000);
afterAll(() => upstream?.close());

/** A tool as tools/list in `all` mode gives it: the catalog's entry without the http binding and toolset. */
function listedInAllMode(name: string): Obj {
  const tool = readCatalog(new URL(`file://${join(pkg, "src/catalog.json")}`)).tools.find((t) => t.name === name);
  const { http: _http, toolset: _toolset, ...listed } = tool ?? {};
  return listed;
}

async function connectTo(
  connectSdk: typeof connectSdkV1,
  transport: "stdio" | "http",
  flags: string[],
): Promise<{ client: ConnectedClient; http?: RunningHttpServer }> {
  const args = ["--base-url", upstream.url, "--mode", "dynamic", ...flags];
  if (transport === "stdio")
    return { client: await connectSdk({ kind: "stdio", file: join(pkg, "src/server.ts"), args }) };
  const http = await startHttpServer(pkg, args);
  const endpoint: Endpoint = { kind: "http", url: http.url };
  return { client: await connectSdk(endpoint), http };
}

const text = (result: Obj) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

const cases = [
  ["v1 (2025-11-25)", "stdio", connectSdkV1],
  ["v1 (2025-11-25)", "http", connectSdkV1],
  ["v2 (2026-07-28)", "http", connectSdkV2],
] as const;

for (const [sdk, transport, connectSdk] of cases) {
  describe(`dynamic mode: official SDK ${sdk} over ${transport}`, () => {
    let client: ConnectedClient;
    let http: RunningHttpServer | undefined;
    beforeAll(async () => {
      ({ client, http } = await connectTo(connectSdk, transport, []));
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await http?.stop();
    });
    const call = (name: string, args: Obj) => client.peer.callTool(name, args);

    it("lists exactly the five dynamic tools", async () => {
      const { tools } = await client.peer.listTools();
      expect(tools).toEqual(DYNAMIC_TOOLS);
    });

    it("search_tools finds a tool, best first, as structuredContent and text", async () => {
      const result = await call("search_tools", { query: "cancel an order", limit: 2 });
      const found = (result.structuredContent as { tools: Obj[] }).tools;
      expect(found.length).toBeLessThanOrEqual(2);
      expect(found).toContainEqual({
        name: "cancel_order",
        description: "Cancel an order that has not shipped yet.",
        toolset: "orders",
      });
      expect(text(result)).toContain("cancel_order [orders]: Cancel an order that has not shipped yet.");
      const onlyCustomers = await call("search_tools", { query: "get", toolset: "customers" });
      expect((onlyCustomers.structuredContent as { tools: Obj[] }).tools.map((t) => t.name)).toEqual(["get_customer"]);
      const badToolset = await call("search_tools", { query: "get", toolset: "custmers" });
      expect(badToolset.isError).toBe(true);
      expect(text(badToolset)).toContain("Unknown toolset 'custmers' (did you mean 'customers'?)");
    });

    it("list_toolsets counts the tools of each toolset", async () => {
      const result = await call("list_toolsets", {});
      expect(result.structuredContent).toEqual({
        toolsets: [
          { name: "billing", tools: 1 },
          { name: "catalog", tools: CATALOG_TOOLS },
          { name: "customers", tools: 2 },
          { name: "default", tools: 1 },
          { name: "orders", tools: 3 },
        ],
      });
    });

    it("list_tools pages through a toolset with nextCursor; a bad cursor is a clear error", async () => {
      const first = await call("list_tools", { toolset: "catalog" });
      const page1 = first.structuredContent as { tools: Obj[]; nextCursor?: string };
      expect(page1.tools).toHaveLength(LIST_PAGE_SIZE);
      expect(page1.tools[0]).toEqual({ name: "product_01", description: "Get product number 1", toolset: "catalog" });
      expect(page1.nextCursor).toEqual(expect.any(String));
      const second = await call("list_tools", { toolset: "catalog", cursor: page1.nextCursor });
      const page2 = second.structuredContent as { tools: Obj[]; nextCursor?: string };
      expect(page2.tools.map((t) => t.name)).toEqual([
        "product_51",
        "product_52",
        "product_53",
        "product_54",
        "product_55",
      ]);
      expect(page2.nextCursor).toBeUndefined();
      const forged = await call("list_tools", { toolset: "catalog", cursor: "not-a-cursor" });
      expect(forged.isError).toBe(true);
      expect(text(forged)).toContain("Invalid cursor for toolset 'catalog'");
      const otherToolset = await call("list_tools", { toolset: "orders", cursor: page1.nextCursor });
      expect(otherToolset.isError).toBe(true);
      const unknown = await call("list_tools", { toolset: "nope" });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toContain("this server's toolsets are: billing, catalog, customers, default, orders");
    });

    it("describe_tools gives the tools as all mode lists them, and reports unknown names one by one", async () => {
      const result = await call("describe_tools", { names: ["get_order", "get_ordr", "cancel_order"] });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        tools: [listedInAllMode("get_order"), listedInAllMode("cancel_order")],
        unknown: ["get_ordr"],
      });
      expect(text(result)).toContain("Unknown tool 'get_ordr' (did you mean 'get_order'?)");
      const none = await call("describe_tools", { names: ["nope"] });
      expect(none.isError).toBe(true);
    });

    it("call_tool gives the tool's own result, with its annotations in _meta", async () => {
      const ok = await call("call_tool", { name: "get_order", arguments: { id: 12 } });
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent).toEqual({ id: 12, status: "shipped" });
      // A read-only tool is not reported "destructive": the write hints do not apply to it (MCP).
      expect((ok._meta as Obj)[ANNOTATIONS_META_KEY]).toEqual({ readOnlyHint: true, openWorldHint: true });
      const direct = await call("get_order", { id: 12 });
      expect(direct.structuredContent).toEqual(ok.structuredContent);
      expect(direct.content).toEqual(ok.content);

      const invalid = await call("call_tool", { name: "get_order", arguments: { id: "twelve" } });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toContain("Invalid arguments for tool get_order: /id must be integer");

      const upstreamDown = await call("call_tool", { name: "get_invoice", arguments: { id: 1 } });
      expect(upstreamDown.isError).toBe(true);
      expect(text(upstreamDown)).toContain("500");
      expect(upstreamDown._meta).toMatchObject({ [ANNOTATIONS_META_KEY]: { readOnlyHint: true } });

      const writes = await call("call_tool", { name: "cancel_order", arguments: { id: 3 } });
      expect(writes._meta).toMatchObject({ [ANNOTATIONS_META_KEY]: { readOnlyHint: false, destructiveHint: true } });
      expect(upstream.requests.at(-1)).toMatchObject({ method: "DELETE", path: "/orders/3" });

      const unknown = await call("call_tool", { name: "cancel_ordr", arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toBe(
        "Unknown tool 'cancel_ordr' (did you mean 'cancel_order'?). Use search_tools to find a tool by what it does.",
      );
    });
  });
}

describe("dynamic mode with --toolsets and --read-only: search, browse, describe and call see only what is served", () => {
  let client: ConnectedClient;
  let http: RunningHttpServer | undefined;
  beforeAll(async () => {
    ({ client, http } = await connectTo(connectSdkV1, "http", ["--toolsets", "orders,customers", "--read-only"]));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await http?.stop();
  });
  const call = (name: string, args: Obj) => client.peer.callTool(name, args);
  const names = (result: Obj) => (result.structuredContent as { tools: Obj[] }).tools.map((t) => t.name);

  it("restricts every dynamic tool", async () => {
    expect((await client.peer.listTools()).tools.map((t) => t.name)).toEqual(DYNAMIC_TOOLS.map((t) => t.name));
    expect(names(await call("search_tools", { query: "order customer invoice product", limit: 50 })).sort()).toEqual([
      "get_customer",
      "get_order",
      "list_orders",
    ]);
    expect((await call("list_toolsets", {})).structuredContent).toEqual({
      toolsets: [
        { name: "customers", tools: 1 },
        { name: "orders", tools: 2 },
      ],
    });
    expect(names(await call("list_tools", { toolset: "orders" }))).toEqual(["get_order", "list_orders"]);
    expect((await call("list_tools", { toolset: "catalog" })).isError).toBe(true);
    const described = await call("describe_tools", { names: ["get_order", "cancel_order", "get_invoice"] });
    expect(described.structuredContent).toMatchObject({ unknown: ["cancel_order", "get_invoice"] });
    expect(text(described)).toContain("The tool 'cancel_order' exists but is not enabled on this server");

    const cancel = await call("call_tool", { name: "cancel_order", arguments: { id: 1 } });
    expect(cancel.isError).toBe(true);
    expect(text(cancel)).toBe(
      "The tool 'cancel_order' exists but is not enabled on this server: it is not read-only and the server runs with --read-only.",
    );
    const invoice = await call("call_tool", { name: "get_invoice", arguments: { id: 1 } });
    expect(text(invoice)).toContain("its toolset 'billing' is not in --toolsets (orders,customers)");
    await expect(call("cancel_order", { id: 1 })).rejects.toThrow("exists but is not enabled");
    const served = await call("call_tool", { name: "get_customer", arguments: { id: 3 } });
    expect(served.isError).toBeFalsy();
  });
});
