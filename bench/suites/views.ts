// Views (MCP Apps, issue 31): what a view weighs and what the `apps` feature adds to a package. The shared part
// (the page script and styles every view inlines) has a 40 KB budget; a page is that plus its own config.
// The package is generated twice from the same spec, as users run it, with and without the feature.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { VIEW_SCRIPT, VIEW_STYLE } from "../../runtime/features/apps/view-assets.ts";
import { viewPage } from "../../runtime/features/apps/view-page.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { bytes } from "../lib/format.ts";
import { filesUnder } from "../lib/package-footprint.ts";
import { BIN, NODE, ROOT, SCRATCH } from "../lib/paths.ts";
import type { Section, Table } from "../lib/results-file.ts";

const SPEC = `${ROOT}specs/petstore.yaml`;
const BUDGET = 40 * 1024;

const sizeOf = (dir: string): number =>
  filesUnder(dir)
    .filter((file) => !file.includes("node_modules"))
    .reduce((sum, file) => sum + statSync(file).size, 0);

function generate(name: string, features: string): string {
  const out = join(SCRATCH, "views", name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const run = spawnSync(NODE, [BIN.mcpgen, "generate", SPEC, "--out", out, "--features", features], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`mcpgen generate failed: ${run.stderr.slice(-1000)}`);
  return out;
}

const sized = (text: string) => {
  const raw = Buffer.byteLength(text);
  return [bytes(raw), bytes(gzipSync(text).length)];
};

export async function viewsSuite(): Promise<Section> {
  const shared = VIEW_SCRIPT + VIEW_STYLE;
  const withApps = generate("apps", "apps");
  const without = generate("none", "none");
  const catalog = readCatalog(new URL(`file://${withApps}/src/catalog.json`));
  const pages = catalog.tools.flatMap((tool) =>
    tool.view && tool.view.kind !== "html"
      ? [
          {
            tool,
            page: viewPage({ server: "petstore", tool: tool.name, title: tool.title ?? tool.name, view: tool.view }),
          },
        ]
      : [],
  );
  const views: Table = {
    headers: ["what", "bytes", "gzip"],
    rows: [
      [`shared part: the page script and styles (budget ${bytes(BUDGET)})`, ...sized(shared)],
      ...pages.map(({ tool, page }) => [`page of ${tool.name} (${tool.view?.kind})`, ...sized(page)]),
    ],
  };
  const added = sizeOf(withApps) - sizeOf(without);
  const runtime = (dir: string) => sizeOf(join(dir, "runtime"));
  const pkg: Table = {
    headers: ["specs/petstore.yaml", "package files (no node_modules)", "runtime/", "npm dependencies added"],
    rows: [
      ["--features none", bytes(sizeOf(without)), bytes(runtime(without)), "none"],
      ["--features apps", bytes(sizeOf(withApps)), bytes(runtime(withApps)), "none"],
      ["added by apps", bytes(added), bytes(runtime(withApps) - runtime(without)), "none"],
    ],
  };
  return {
    id: "views",
    title: "Views (MCP Apps): page sizes and what the apps feature adds",
    intro: [
      "Pages are made as resources/read makes them; the package sizes count every file `mcpgen generate` writes (runtime/, src/, docs), not node_modules (the feature has no npm dependency).",
    ],
    tables: [views, pkg],
    notes: [
      shared.length <= BUDGET
        ? `The shared part is within its budget (${((shared.length / BUDGET) * 100).toFixed(0)}% of it).`
        : `The shared part is OVER its budget of ${bytes(BUDGET)}.`,
    ],
  };
}
