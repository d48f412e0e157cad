/**
 * Views (issue 31) in a real browser: generated/petstore (whose listPets asks for a table) serves its views to the
 * official SDK client, which declares the MCP Apps extension; a host page embeds each view in a sandboxed iframe
 * and drives it with the official AppBridge (directly, and through a sandbox proxy on another origin, as web hosts
 * do); Chromium renders it. The upstream is a small local API whose records include hostile strings.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, type RunningHttpServer, scratchDir, startHttpServer } from "../generate/support.ts";
import { type Frame, mountView, waitFor } from "../support/apps-host/browser.ts";
import { startPetstoreHost, UI, type ViewsHost } from "../support/apps-host/views-host.ts";

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = "</script><script>window.__pwned=1</script>";
// The last pet's id is long enough to wrap in a narrow table, which a number must not.
const BIG_ID = 1234567890123;
const LONG_NAME = "Bartholomew the Magnificent, Destroyer of Slippers and Guardian of the Garden Gate";
const PETS = Array.from({ length: 30 }, (_, i) => ({
  id: i === 29 ? BIG_ID : i + 1,
  name: i === 0 ? IMG : i === 1 ? SCRIPT : i === 29 ? LONG_NAME : `Pet ${String(i + 1).padStart(2, "0")}`,
  tag: i % 2 ? "cat" : "dog",
  status: ["available", "pending", "sold"][i % 3],
}));

let host: ViewsHost;
beforeAll(async () => {
  host = await startPetstoreHost(PETS);
}, 120_000);
afterAll(() => host?.close());

async function mount(tool: string, input: Record<string, unknown>, options: { proxy?: boolean; theme?: "dark" } = {}) {
  const mounted = await host.mount(tool, input, options);
  expect(mounted.uri, `${tool} names its view`).toBe(`ui://petstore/${tool}`);
  await waitFor(mounted.view, "document.querySelector('main')?.dataset.state === 'ready'");
  return mounted;
}

const cells = (view: Frame) =>
  view.evaluate<string[][]>(
    "[...document.querySelectorAll('table.view-table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent.trim()))",
  );
const headers = (view: Frame) =>
  view.evaluate<string[]>(
    "[...document.querySelectorAll('table.view-table thead th')].map((h) => h.textContent.trim())",
  );

describe.each([false, true])("through a sandbox proxy: %s", (proxy) => {
  it("a list shows one row per record with the right cells, 25 a page, and the count", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    expect(await headers(view)).toEqual(["Name", "Id", "Status", "Tag", "Actions"]);
    const rows = await cells(view);
    expect(rows).toHaveLength(25);
    expect(rows[2]).toEqual(["Pet 03", "3", "sold", "dog", "Open"]);
    expect(await view.evaluate("document.querySelector('caption').textContent")).toContain("30 items");
    expect(await view.evaluate("document.querySelector('.pager .range').textContent")).toBe("1–25 of 30");
    await page.close();
  });

  it("a hostile string from the API shows as text: no element made of it, no script run", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    const rows = await cells(view);
    expect(rows[0][0]).toBe(IMG);
    expect(rows[1][0]).toBe(SCRIPT);
    expect(await view.evaluate("document.querySelectorAll('img').length")).toBe(0);
    expect(await view.evaluate("document.querySelectorAll('script').length")).toBe(2); // config + the view's own
    expect(await view.evaluate("window.__pwned")).toBeUndefined();
    await page.close();
  });

  it("sorting by a column orders the rows and says so (aria-sort)", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    await view.evaluate("document.querySelectorAll('thead th button')[1].click()"); // Id, ascending
    await view.evaluate("document.querySelectorAll('thead th button')[1].click()"); // Id, descending
    await waitFor(view, "document.querySelectorAll('thead th')[1].getAttribute('aria-sort') === 'descending'");
    expect((await cells(view)).slice(0, 3).map((row) => row[1])).toEqual(["1,234,567,890,123", "29", "28"]);
    await view.evaluate("document.querySelectorAll('thead th button')[0].click()"); // Name, ascending
    await waitFor(view, "document.querySelectorAll('thead th')[0].getAttribute('aria-sort') === 'ascending'");
    const names = (await cells(view)).map((row) => row[0]);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    await page.close();
  });

  it("a row's Open calls getPet through the host and shows the pet as a card", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    const before = host.upstreamSeen.length;
    await view.evaluate("document.querySelectorAll('tbody tr')[4].querySelector('button.open').click()");
    await waitFor(view, "document.querySelector('section.detail article.view-card')");
    expect(host.upstreamSeen.slice(before)).toContain("GET /pets/5");
    const events = (await page.evaluate("window.hostEvents")) as Array<[string, unknown]>;
    expect(events).toContainEqual(["tools/call", { name: "getPet", arguments: { petId: 5 } }]);
    const card = await view.evaluate<string[][]>(
      "[...document.querySelectorAll('section.detail dl > dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])",
    );
    expect(card).toContainEqual(["Name", "Pet 05"]);
    expect(card).toContainEqual(["Id", "5"]);
    await page.close();
  });

  it("in a narrow frame a number stays on one line", async () => {
    const { page, view } = await host.mount("listPets", {}, { proxy, width: 300 });
    await waitFor(view, "document.querySelector('main')?.dataset.state === 'ready'");
    await view.evaluate("document.querySelectorAll('thead th button')[1].click()");
    await view.evaluate("document.querySelectorAll('thead th button')[1].click()"); // Id, descending: the big one first
    await waitFor(view, "document.querySelector('tbody td.num')?.textContent === '1,234,567,890,123'");
    const lines = await view.evaluate<number[]>(
      "[...document.querySelectorAll('tbody td.num')].map((td) => { const r = document.createRange(); r.selectNodeContents(td); return new Set([...r.getClientRects()].map((rect) => Math.round(rect.top))).size; })",
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
    await page.close();
  });

  it("a detail tool shows a card; the handshake, tool input then result, and size changes reach the host", async () => {
    const { page, view } = await mount("getPet", { petId: 7 }, { proxy, theme: "dark" });
    expect(await view.evaluate("document.querySelector('article.view-card h2').textContent")).toBeTruthy();
    const card = await view.evaluate<string[][]>(
      "[...document.querySelectorAll('article.view-card dl > dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])",
    );
    expect(card).toEqual([
      ["Name", "Pet 07"],
      ["Tag", "dog"],
      ["Status", "available"],
      ["Id", "7"],
    ]);
    expect(await view.evaluate("document.documentElement.dataset.theme")).toBe("dark");
    await waitFor(page, "window.hostEvents.some((e) => e[0] === 'size-changed')");
    const events = ((await page.evaluate("window.hostEvents")) as Array<[string]>).map((e) => e[0]);
    const order = ["initialized", "tool-input", "tool-result"].map((name) => events.indexOf(name));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    if (proxy) expect(events[0]).toBe("sandbox-proxy-ready");
    await page.close();
  });
});

describe("dynamic mode", () => {
  let dynamic: RunningHttpServer;
  let dynamicClient: Client;
  beforeAll(async () => {
    const out = `${scratchDir("views-dynamic")}/petstore`;
    const result = await generate(`${ROOT}/specs/petstore.yaml`, out, { features: ["apps", "dynamic"] });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    dynamic = await startHttpServer(out, ["--base-url", host.upstreamUrl, "--mode", "dynamic"], {
      PETSTORE_API_KEY: "test-key",
    });
    dynamicClient = new Client({ name: "views-host", version: "1.0.0" }, { capabilities: { extensions: UI } as never });
    await dynamicClient.connect(new StreamableHTTPClientTransport(new URL(dynamic.url)));
  }, 120_000);
  afterAll(async () => {
    await dynamicClient?.close();
    await dynamic?.stop();
  });

  it("describe_tools shows the view's URI; call_tool's view shows the called tool's result with its view", async () => {
    const described = await dynamicClient.callTool({ name: "describe_tools", arguments: { names: ["listPets"] } });
    expect(JSON.stringify(described)).toContain("ui://petstore/listPets");
    const input = { name: "listPets", arguments: {} };
    const { page, view, uri } = await mountView(host.browser, host.pages, dynamicClient as never, "call_tool", input);
    expect(uri).toBe("ui://petstore/call_tool");
    await waitFor(view, "document.querySelector('main')?.dataset.state === 'ready'");
    expect(await headers(view)).toEqual(["Name", "Id", "Status", "Tag", "Actions"]);
    expect(await cells(view)).toHaveLength(25);
    const events = (await page.evaluate("window.hostEvents")) as Array<[string, unknown]>;
    expect(events).toContainEqual(["resources/read", { uri: "ui://petstore/listPets" }]);
    await page.close();
  });
});
