/**
 * The walls around a view (issue 31): no reach into its host's page, and through the sandbox proxy (spec "Sandbox
 * proxy", 5.), the network and eval only as the resource's declared domains allow: the spec's restrictive
 * default when it declares none, as generated views do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Frame, waitFor } from "../support/apps-host/browser.ts";
import { sandboxPolicy } from "../support/apps-host/sandbox-csp.ts";
import { type PetstoreHost, startPetstoreHost } from "../support/apps-host/views-host.ts";

let host: PetstoreHost;
beforeAll(async () => {
  host = await startPetstoreHost();
}, 120_000);
afterAll(() => host?.close());

const mount: PetstoreHost["mount"] = (...args) => host.mount(...args);
// A request the view makes itself, answered or refused; no-cors: the upstream sends no CORS headers, and only
// the CSP is under test.
const reach = (url: string) => `fetch(${JSON.stringify(url)}, { mode: "no-cors" }).then(() => "sent", () => "refused")`;

describe.each([false, true])("through a sandbox proxy: %s", (proxy) => {
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
    const before = host.upstreamSeen.length;
    expect(await view.evaluate(reach(`${host.upstreamUrl}/pets/3`))).toBe("refused");
    expect(await view.evaluate(reach("https://example.com/"))).toBe("refused");
    expect(host.upstreamSeen.slice(before)).toEqual([]);
    expect(await evaluates(view)).toBe("refused");
    await page.close();
  });

  it("declared connectDomains open exactly those origins; a value that is no origin is dropped", async () => {
    // The second would add 'unsafe-eval' to script-src if it were taken as written.
    const csp = { connectDomains: [host.upstreamUrl], resourceDomains: ["https://x.test 'unsafe-eval'"] };
    const { page, view } = await mount("getPet", { petId: 1 }, { proxy: true, csp });
    const before = host.upstreamSeen.length;
    expect(await view.evaluate(reach(`${host.upstreamUrl}/pets/3`))).toBe("sent");
    expect(host.upstreamSeen.slice(before)).toContain("GET /pets/3");
    expect(await view.evaluate(reach("https://example.com/"))).toBe("refused");
    expect(await evaluates(view)).toBe("refused");
    await page.close();
  });
});
