// generated/petstore behind a recording local upstream (30 pets), read by the official SDK client declaring the
// MCP Apps extension, with the host pages and Chromium: what the views' host tests share. The views-browser
// suite keeps its own upstream (hostile names among its records).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT, startHttpServer } from "../../generate/support.ts";
import { type Frame, launchChromium, type MountOptions, mountView, type Page } from "./browser.ts";
import { startHostPages } from "./host-page.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
export const PETS = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, tag: "dog" }));

export type PetstoreHost = {
  upstreamUrl: string;
  /** "GET /pets/3", each request the upstream saw, in order. */
  upstreamSeen: string[];
  mount(tool: string, input: Record<string, unknown>, options?: MountOptions): Promise<{ page: Page; view: Frame }>;
  close(): Promise<void>;
};

export async function startPetstoreHost(): Promise<PetstoreHost> {
  const upstreamSeen: string[] = [];
  const upstream = createServer((request, response) => {
    upstreamSeen.push(`${request.method} ${request.url}`);
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const one = /^\/pets\/(\d+)$/.exec(path);
    const body = path === "/pets" ? { items: PETS, next: null } : one ? PETS[Number(one[1]) - 1] : undefined;
    response.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(body ?? { message: "no such pet" }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const server = await startHttpServer(`${ROOT}/generated/petstore`, ["--base-url", upstreamUrl], {
    PETSTORE_API_KEY: "test-key",
  });
  const client = new Client({ name: "views-host", version: "1.0.0" }, { capabilities: { extensions: UI } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const pages = await startHostPages();
  const browser = await launchChromium();
  return {
    upstreamUrl,
    upstreamSeen,
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
