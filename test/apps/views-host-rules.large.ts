/**
 * Views (issue 31) under the host's side of the MCP Apps spec, beyond one call's render (views-browser.large.ts):
 * a host-context change re-themes, restyles (the host's variables) or goes fullscreen in a mounted view, whose
 * size-changed keeps the host's frame as tall as its content; a call still running shows as loading and a
 * cancelled one says so; the view answers the host's teardown. The walls around a view: views-sandbox.large.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/apps-host/browser.ts";
import { type PetstoreHost, startPetstoreHost } from "../support/apps-host/views-host.ts";

const CONTEXT = { displayMode: "inline", locale: "en-US", timeZone: "UTC", containerDimensions: { width: 900 } };

let host: PetstoreHost;
beforeAll(async () => {
  host = await startPetstoreHost();
}, 120_000);
afterAll(() => host?.close());

const mount: PetstoreHost["mount"] = (...args) => host.mount(...args);
const state = "document.querySelector('main').dataset.state";
const rows = "document.querySelectorAll('table.view-table tbody tr').length";
const background = "getComputedStyle(document.documentElement).backgroundColor";
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
});
