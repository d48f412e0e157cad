/**
 * Views (issue 31) under the host's side of the MCP Apps spec, beyond one call's render (views-browser.large.ts):
 * a host-context change re-themes, restyles (the host's variables) or goes fullscreen in a mounted view, whose
 * size-changed keeps the host's frame as tall as its content; a call still running shows as loading and a
 * cancelled one says so; the view answers the host's teardown; and the view is walled in: no reach into its
 * host's page, and through the sandbox proxy, the network only where the resource's declared domains (spec
 * "Sandbox proxy", 5.) allow it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, type RunningHttpServer, startHttpServer } from "../generate/support.ts";
import {
  type Browser,
  type Frame,
  launchChromium,
  type MountOptions,
  mountView,
  waitFor,
} from "../support/apps-host/browser.ts";
import { type HostPages, startHostPages } from "../support/apps-host/host-page.ts";
import { sandboxPolicy } from "../support/apps-host/sandbox-csp.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const PETS = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, tag: "dog" }));
const CONTEXT = { displayMode: "inline", locale: "en-US", timeZone: "UTC", containerDimensions: { width: 900 } };

let upstream: Server;
let upstreamUrl: string;
const upstreamSeen: string[] = [];
let server: RunningHttpServer;
let client: Client;
let pages: HostPages;
let browser: Browser;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    upstreamSeen.push(`${request.method} ${request.url}`);
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const one = /^\/pets\/(\d+)$/.exec(path);
    const body = path === "/pets" ? { items: PETS, next: null } : one ? PETS[Number(one[1]) - 1] : undefined;
    response.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(body ?? { message: "no such pet" }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startHttpServer(`${ROOT}/generated/petstore`, ["--base-url", upstreamUrl], {
    PETSTORE_API_KEY: "test-key",
  });
  client = new Client({ name: "views-host", version: "1.0.0" }, { capabilities: { extensions: UI } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  pages = await startHostPages();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await client?.close();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

const mount = (tool: string, input: Record<string, unknown>, options: MountOptions) =>
  mountView(browser, pages, client as never, tool, input, options);
const state = "document.querySelector('main').dataset.state";
const rows = "document.querySelectorAll('table.view-table tbody tr').length";
const background = "getComputedStyle(document.documentElement).backgroundColor";
// A request the view makes itself, answered or refused; no-cors: the upstream sends no CORS headers, and only
// the CSP is under test.
const reach = (url: string) => `fetch(${JSON.stringify(url)}, { mode: "no-cors" }).then(() => "sent", () => "refused")`;

describe.each([false, true])("through a sandbox proxy: %s", (proxy) => {
  it("a host-context change to dark re-themes the mounted view and keeps its table", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    expect(await view.evaluate("document.documentElement.dataset.theme")).toBe("light");
    await page.evaluate(`window.hostBridge.setHostContext(${JSON.stringify({ ...CONTEXT, theme: "dark" })})`);
    await waitFor(view, "document.documentElement.dataset.theme === 'dark'");
    expect(await view.evaluate(background)).toBe("rgb(13, 17, 23)"); // the page's own dark, the host gave none
    expect(await view.evaluate(rows)).toBe(25);
    await page.close();
  });

  it("the host's style variables restyle the view; a key that is no custom property does not", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    const variables = { "--color-background-primary": "rgb(1, 2, 3)", color: "rgb(255, 0, 0)" };
    await page.evaluate(`window.hostBridge.setHostContext(${JSON.stringify({ ...CONTEXT, styles: { variables } })})`);
    await waitFor(view, `${background} === 'rgb(1, 2, 3)'`);
    expect(await view.evaluate("document.documentElement.style.color")).toBe("");
    await page.close();
  });

  it("fullscreen (a host-context change) shows up to 100 rows a page, inline 25", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    expect(await view.evaluate(rows)).toBe(25);
    await page.evaluate(
      `window.hostBridge.setHostContext(${JSON.stringify({ ...CONTEXT, displayMode: "fullscreen" })})`,
    );
    await waitFor(view, `${rows} === 30`);
    expect(await view.evaluate("document.documentElement.dataset.display")).toBe("fullscreen");
    await page.close();
  });

  it("the host's frame follows the view's size-changed: as tall as its content, again when the content grows", async () => {
    const { page, view } = await mount("listPets", {}, { proxy });
    const frameHeight = "Math.round(document.getElementById('view').getBoundingClientRect().height)";
    const fits = async () => {
      const content = await view.evaluate<number>("document.documentElement.scrollHeight");
      await waitFor(page, `Math.abs(${frameHeight} - ${content}) <= 2`);
      return content;
    };
    const inline = await fits();
    await page.evaluate(
      `window.hostBridge.setHostContext(${JSON.stringify({ ...CONTEXT, displayMode: "fullscreen" })})`,
    );
    await waitFor(view, `${rows} === 30`);
    expect(await fits()).toBeGreaterThan(inline);
    await page.close();
  });

  it("a call still running shows as loading; the host's tool-cancelled replaces it with the reason", async () => {
    const { page, view } = await mount("getPet", { petId: 2 }, { proxy, hold: true });
    expect(await view.evaluate(state)).toBe("loading");
    await page.evaluate("window.hostBridge.sendToolCancelled({ reason: 'stopped by the user' })");
    await waitFor(view, `${state} === 'cancelled'`);
    expect(await view.evaluate("document.querySelector('main').textContent")).toContain("stopped by the user");
    await page.close();
  });

  it("the view answers the host's ui/resource-teardown (the host may then remove it)", async () => {
    const { page } = await mount("getPet", { petId: 1 }, { proxy });
    expect(await page.evaluate("window.hostBridge.teardownResource({})")).toEqual({});
    await page.close();
  });

  it("the view cannot reach into its host's page (an opaque origin of its own)", async () => {
    const { page, view } = await mount("getPet", { petId: 1 }, { proxy });
    const touch = "(() => { try { return typeof window.parent.document; } catch { return 'refused'; } })()";
    expect(await view.evaluate(touch)).toBe("refused");
    expect(await view.evaluate("window.origin")).toBe("null");
    await page.close();
  });
});

describe("the sandbox proxy's CSP (spec: Sandbox proxy, 5.)", () => {
  // Run by the page itself (an inline script it adds, after the DevTools call returned): the DevTools' own
  // evaluation may eval whatever the page's CSP says.
  const tryEval = "try { eval('1'); window.__eval = 'ran'; } catch { window.__eval = 'refused'; }";
  const evaluates = async (view: Frame) => {
    await view.evaluate(
      `setTimeout(() => { const s = document.createElement("script"); s.textContent = ${JSON.stringify(tryEval)}; document.head.append(s); })`,
    );
    await waitFor(view, "window.__eval");
    return view.evaluate("window.__eval");
  };

  it("with no declared domains it is the spec's restrictive default, plus frames, base and plugins shut", () => {
    expect(sandboxPolicy({}).split("; ")).toEqual([
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "media-src 'self' data:",
      "connect-src 'none'",
      "frame-src 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ]);
  });

  it("with no declared domains, the view's own requests are refused and never reach the network", async () => {
    const { page, view } = await mount("getPet", { petId: 1 }, { proxy: true });
    const before = upstreamSeen.length;
    expect(await view.evaluate(reach(`${upstreamUrl}/pets/3`))).toBe("refused");
    expect(await view.evaluate(reach("https://example.com/"))).toBe("refused");
    expect(upstreamSeen.slice(before)).toEqual([]);
    expect(await evaluates(view)).toBe("refused");
    await page.close();
  });

  it("declared connectDomains open exactly those origins; a value that is no origin is dropped", async () => {
    // The second would add 'unsafe-eval' to script-src if it were taken as written.
    const csp = { connectDomains: [upstreamUrl], resourceDomains: ["https://x.test 'unsafe-eval'"] };
    const { page, view } = await mount("getPet", { petId: 1 }, { proxy: true, csp });
    const before = upstreamSeen.length;
    expect(await view.evaluate(reach(`${upstreamUrl}/pets/3`))).toBe("sent");
    expect(upstreamSeen.slice(before)).toContain("GET /pets/3");
    expect(await view.evaluate(reach("https://example.com/"))).toBe("refused");
    expect(await evaluates(view)).toBe("refused");
    await page.close();
  });
});
