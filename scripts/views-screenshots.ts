// `npx tsx scripts/views-screenshots.ts`: docs/views.md's pictures of views (issue 31). GitHub's whole document,
// generated with the apps feature, served for its `issues` toolset behind Prism (the document's own
// examples), its issues_list-for-repo and issues_get views rendered by the test host in Chromium (light theme,
// 900 px), saved as docs/views-table.png and docs/views-card.png. Needs `npm run setup:apps` and chromium.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generate } from "../generator/index.ts";
import { ROOT, startHttpServer } from "../test/generate/support.ts";
import { GITHUB } from "../test/openapi/github-session.ts";
import { startPrism } from "../test/openapi/prism.ts";
import { launchChromium, mountView } from "../test/support/apps-host/browser.ts";
import { startHostPages } from "../test/support/apps-host/host-page.ts";

/**
 * Prism in front of the document's own examples (octocat's "Found a bug", not schema-made noise), which it
 * serves wrapped as an Example Object (`{ "value": ... }`) where the document names them by $ref (issues_get's): unwrapped here.
 */
async function unwrapping(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const upstream = await fetch(new URL(request.url ?? "/", target), {
      method: request.method,
      headers: { accept: "application/json", authorization: request.headers.authorization ?? "" },
    });
    const text = await upstream.text();
    const body = ((): string => {
      try {
        const json = JSON.parse(text);
        // An Example Object: its value beside at most a summary, a description and x- extensions.
        const keys = json && typeof json === "object" && !Array.isArray(json) ? Object.keys(json) : [];
        const meta = (key: string) => ["value", "summary", "description"].includes(key) || key.startsWith("x-");
        const wrapped = keys.includes("value") && keys.every(meta);
        return JSON.stringify(wrapped ? json.value : json);
      } catch {
        return text;
      }
    })();
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/plain" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const out = join(ROOT, ".tmp/views-github");
const prism = await startPrism(GITHUB, { startTimeoutMs: 240_000 });
const examples = await unwrapping(prism.url);
const result = await generate(GITHUB, out, { features: ["apps"] });
const errors = result.diagnostics.filter((d) => d.severity === "error");
if (errors.length > 0) throw new Error(`generate failed: ${JSON.stringify(errors.slice(0, 3))}`);
const server = await startHttpServer(out, ["--base-url", examples.url, "--toolsets", "issues"], {
  GITHUB_V3_REST_API_TOKEN: "t",
});
const client = new Client(
  { name: "views-screenshots", version: "1.0.0" },
  { capabilities: { extensions: UI } as never },
);
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const pages = await startHostPages();
const browser = await launchChromium();
mkdirSync(join(ROOT, "docs"), { recursive: true });
try {
  const shots = [
    ["issues_list-for-repo", { owner: "octocat", repo: "Hello-World" }, "views-table.png"],
    ["issues_get", { owner: "octocat", repo: "Hello-World", issue_number: 1347 }, "views-card.png"],
  ] as const;
  for (const [tool, input, file] of shots) {
    const { page } = await mountView(browser, pages, client as never, tool, input);
    // Let the host size the frame to the view's size-changed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const frame = await page.$("iframe");
    await frame?.screenshot({ path: join(ROOT, "docs", file) });
    process.stdout.write(`wrote docs/${file}\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await pages.close();
  await client.close();
  await server.stop();
  await examples.close();
  await prism.stop();
}
