// A generated package behind a recording local upstream, read by the official SDK client declaring the MCP Apps
// extension, with the host pages and Chromium: what the views' browser tests share. startPetstoreHost is
// generated/petstore over a list of pets (30 plain ones unless a suite brings its own, hostile names and all).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT, startHttpServer } from "../../generate/support.ts";
import { type Browser, launchChromium, type MountOptions, mountView } from "./browser.ts";
import { type HostPages, startHostPages } from "./host-page.ts";

export const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
export const PETS = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, tag: "dog" }));

export type ViewsHost = {
  upstreamUrl: string;
  /** "GET /pets/3", each request the upstream saw, in order. */
  upstreamSeen: string[];
  client: Client;
  browser: Browser;
  pages: HostPages;
  /** Mounts `tool`'s view for a call with `input` through this host's client. */
  mount(tool: string, input: Record<string, unknown>, options?: MountOptions): ReturnType<typeof mountView>;
  close(): Promise<void>;
};
/** The petstore host, as the suites that need no more than it name it. */
export type PetstoreHost = ViewsHost;

/** Serves `pkgDir` over an upstream answering each path with `answer(path)` (undefined: 404), with `env`. */
export async function startViewsHost(
  pkgDir: string,
  answer: (path: string) => unknown,
  env: NodeJS.ProcessEnv = {},
): Promise<ViewsHost> {
  const upstreamSeen: string[] = [];
  const upstream = createServer((request, response) => {
    upstreamSeen.push(`${request.method} ${request.url}`);
    const body = answer(new URL(request.url ?? "/", "http://x").pathname);
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(body ?? { message: "not found" }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const server = await startHttpServer(pkgDir, ["--base-url", upstreamUrl], env);
  const client = new Client({ name: "views-host", version: "1.0.0" }, { capabilities: { extensions: UI } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const pages = await startHostPages();
  const browser = await launchChromium();
  return {
    upstreamUrl,
    upstreamSeen,
    client,
    browser,
    pages,
    mount: (tool, input, options = {}) => mountView(browser, pages, client as never, tool, input, options),
    close: async () => {
      await browser.close();
      await pages.close();
      await client.close();
      await server.stop();
      await new Promise((resolve) => upstream.close(resolve));
    },
  };
}

/** generated/petstore over `pets`: GET /pets is the page of them all, GET /pets/{n} the n-th. */
export function startPetstoreHost(pets: readonly unknown[] = PETS): Promise<ViewsHost> {
  const answer = (path: string) => {
    const one = /^\/pets\/(\d+)$/.exec(path);
    return path === "/pets" ? { items: pets, next: null } : one ? pets[Number(one[1]) - 1] : undefined;
  };
  return startViewsHost(`${ROOT}/generated/petstore`, answer, { PETSTORE_API_KEY: "test-key" });
}
