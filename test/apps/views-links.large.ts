/**
 * A view's links (issue 31) under a real host: a URL field (format: uri) shows as a link that opens through the
 * host (`ui/open-link`, the host decides), never by the view navigating itself; a `javascript:` URL in a URL
 * field stays text. A package generated for the test from a one-operation document, with the apps feature.
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { scratchDir } from "../generate/support.ts";
import { waitFor } from "../support/apps-host/browser.ts";
import { startViewsHost, type ViewsHost } from "../support/apps-host/views-host.ts";

// Two fields the document says are URLs: one a web page, one a script the API let through.
const SITE = {
  id: 1,
  name: "Docs",
  homepage: "https://example.com/docs?lang=en",
  callback: "javascript:window.__pwned=1",
};
const url = { type: "string", format: "uri" };
const properties = { id: { type: "integer" }, name: { type: "string" }, homepage: url, callback: url };
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Links", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/site": {
      get: {
        operationId: "getSite",
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties } } } },
        },
      },
    },
  },
};

let host: ViewsHost;
beforeAll(async () => {
  const dir = scratchDir("views-links");
  writeFileSync(`${dir}/links.json`, JSON.stringify(DOCUMENT));
  const result = await generate(`${dir}/links.json`, `${dir}/links`, { features: ["apps"] });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  host = await startViewsHost(`${dir}/links`, () => SITE);
}, 120_000);
afterAll(() => host?.close());

describe.each([false, true])("through a sandbox proxy: %s", (proxy) => {
  it("a URL opens through the host's ui/open-link; a javascript: URL in a URL field stays text", async () => {
    const { page, view } = await host.mount("getSite", {}, { proxy });
    const anchors = await view.evaluate<string[]>("[...document.querySelectorAll('a')].map((a) => a.href)");
    expect(anchors).toEqual([SITE.homepage]);
    await view.evaluate("document.querySelector('a').click()");
    await waitFor(page, "window.hostEvents.some((e) => e[0] === 'open-link')");
    const events = (await page.evaluate("window.hostEvents")) as Array<[string, unknown]>;
    expect(events).toContainEqual(["open-link", { url: SITE.homepage }]);
    // The view stays where it was (the click was the host's to act on), the script URL shown as its text.
    const card = await view.evaluate<string[][]>(
      "[...document.querySelectorAll('article.view-card dl > dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])",
    );
    expect(await view.evaluate("location.href")).toBe("about:srcdoc");
    expect(card).toContainEqual(["Callback", SITE.callback]);
    expect(await view.evaluate("window.__pwned")).toBeUndefined();
    await page.close();
  });
});
