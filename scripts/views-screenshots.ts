// `npx tsx scripts/views-screenshots.ts`: the README's pictures of views (issue 31). GitHub's whole document,
// generated with the apps feature, served for its `issues` toolset behind Prism (data made from the
// schemas, seed 1), its issues_list-for-repo and issues_get views rendered by the test host in Chromium (light theme,
// 900 px), saved as docs/views-table.png and docs/views-card.png. Needs `npm run setup:apps` and chromium.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generate } from "../generator/index.ts";
import { ROOT, startHttpServer } from "../test/generate/support.ts";
import { GITHUB } from "../test/openapi/github-session.ts";
import { startPrism } from "../test/openapi/prism.ts";
import { launchChromium, mountView } from "../test/support/apps-host/browser.ts";
import { startHostPages } from "../test/support/apps-host/host-page.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const out = join(ROOT, ".tmp/views-github");
// Data made from the schemas: the document's own examples come wrapped ({ value: ... }) where Prism serves them.
const prism = await startPrism(GITHUB, { dynamic: true, startTimeoutMs: 240_000 });
const result = await generate(GITHUB, out, { features: ["apps"] });
const errors = result.diagnostics.filter((d) => d.severity === "error");
if (errors.length > 0) throw new Error(`generate failed: ${JSON.stringify(errors.slice(0, 3))}`);
const server = await startHttpServer(out, ["--base-url", prism.url, "--toolsets", "issues"], {
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
  await prism.stop();
}
