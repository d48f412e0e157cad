// Chromium (puppeteer-core from tools/apps) and the host page: mounting a tool's view for a call, as a host does,
// with the MCP side done by `mcp` (the official SDK client in the tests and in scripts/views-screenshots.ts).
import { APPS_TOOLS, chromiumPath, type HostPages } from "./host-page.ts";

export type Frame = { evaluate<T>(fn: string): Promise<T>; childFrames(): Frame[] };
export type ElementShot = { screenshot(options: { path: string }): Promise<unknown> };
export type Page = Frame & {
  goto(url: string): Promise<unknown>;
  exposeFunction(name: string, fn: (...args: never[]) => unknown): Promise<void>;
  evaluate<T>(fn: string | ((...args: never[]) => T), ...args: unknown[]): Promise<T>;
  frames(): Frame[];
  setViewport(size: { width: number; height: number }): Promise<void>;
  $(selector: string): Promise<ElementShot | null>;
  close(): Promise<void>;
};
export type Browser = { newPage(): Promise<Page>; close(): Promise<void> };

/** What the host needs of its MCP client. */
export type HostClient = {
  listTools(): Promise<{ tools: Array<{ name: string; _meta?: Record<string, unknown> }> }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
};

export async function launchChromium(): Promise<Browser> {
  const module = await import(`${APPS_TOOLS}node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js`);
  const puppeteer = module.default as { launch(options: object): Promise<Browser> };
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

export type MountOptions = { proxy?: boolean; theme?: "light" | "dark"; width?: number };

/** Opens the host page and mounts `tool`'s view (its _meta.ui.resourceUri, read) for a call with `input`. */
export async function mountView(
  browser: Browser,
  pages: HostPages,
  mcp: HostClient,
  tool: string,
  input: Record<string, unknown>,
  options: MountOptions = {},
): Promise<{ page: Page; view: Frame; uri: string | undefined }> {
  const { tools } = await mcp.listTools();
  const uri = (tools.find((t) => t.name === tool)?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!uri) return Promise.reject(new Error(`tool ${tool} names no view`));
  const read = await mcp.readResource({ uri });
  const html = (read.contents[0] as { text: string }).text;
  const page = await browser.newPage();
  await page.setViewport({ width: options.width ?? 900, height: 900 });
  await page.exposeFunction("hostCall", ((method: string, params: never) =>
    method === "tools/call" ? mcp.callTool(params) : mcp.readResource(params)) as never);
  await page.goto(pages.hostUrl);
  const hostContext = {
    theme: options.theme ?? "light",
    displayMode: "inline",
    availableDisplayModes: ["inline", "fullscreen"],
    locale: "en-US",
    timeZone: "UTC",
    containerDimensions: { width: options.width ?? 900, maxHeight: 4000 },
  };
  await page.evaluate(
    (args: object) => (window as unknown as { mountView(a: object): Promise<void> }).mountView(args),
    { html, tool, input, hostContext, ...(options.proxy ? { proxyUrl: pages.proxyUrl } : {}) },
  );
  const view = await viewFrame(page, options.proxy === true);
  await waitFor(view, "['ready', 'error'].includes(document.querySelector('main')?.dataset.state)");
  return { page, view, uri };
}

async function viewFrame(page: Page, proxied: boolean): Promise<Frame> {
  for (let i = 0; i < 100; i++) {
    const outer = page.frames()[1];
    const frame = proxied ? outer?.childFrames()[0] : outer;
    if (frame) return frame;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the view's frame never appeared");
}

export async function waitFor(frame: Frame, condition: string, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await frame.evaluate(`Boolean(${condition})`).catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${condition}`);
}
