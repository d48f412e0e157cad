// The views' test host (issue 31): a host page on one origin (127.0.0.1) and a sandbox proxy on another (localhost),
// the host's script bundled with esbuild from tools/apps's @modelcontextprotocol/ext-apps (AppBridge), and
// Chromium driven by puppeteer-core. `npm run setup:apps` installs tools/apps; .ci/run installs chromium.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { policyOfUrl } from "./sandbox-csp.ts";

const HERE = fileURLToPath(new URL(".", import.meta.url));
export const APPS_TOOLS = fileURLToPath(new URL("../../../tools/apps/", import.meta.url));

/** Chromium's binary: Debian's real one, not its /usr/bin wrapper script. */
export function chromiumPath(): string {
  if (existsSync("/usr/lib/chromium/chromium")) return "/usr/lib/chromium/chromium";
  return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
}

async function hostScript(): Promise<string> {
  const bundled = await build({
    stdin: { contents: readFileSync(`${HERE}host-entry.js`, "utf8"), resolveDir: APPS_TOOLS, loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return bundled.outputFiles[0].text;
}

export type HostPages = { hostUrl: string; proxyUrl: string; close(): Promise<void> };

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

export async function startHostPages(): Promise<HostPages> {
  const script = (await hostScript()).replace(/<\/script/gi, "<\\/script");
  const host = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body style="margin:0;max-width:900px"><script>${script}</script></body></html>`;
  const proxy = readFileSync(`${HERE}sandbox-proxy.html`, "utf8");
  const page = (html: string, headers: (url?: string) => Record<string, string> = () => ({})) =>
    createServer((request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers(request.url) });
      response.end(html);
    });
  const hostServer = page(host);
  const proxyServer = page(proxy, (url) => ({ "content-security-policy": policyOfUrl(url) }));
  const [hostPort, proxyPort] = await Promise.all([listen(hostServer), listen(proxyServer)]);
  return {
    hostUrl: `http://127.0.0.1:${hostPort}/`,
    // Another host name, so another origin: the spec's proxy must not share the host's. `?csp=` names the view's
    // declared domains (host-entry.js adds it).
    proxyUrl: `http://localhost:${proxyPort}/`,
    close: async () => {
      await Promise.all([hostServer, proxyServer].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
