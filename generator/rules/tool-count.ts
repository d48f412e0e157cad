/**
 * A server with more tools than clients accept (VS Code Copilot, JetBrains Copilot and the OpenAI API
 * stop at 128 per request): a warning that recommends dynamic mode or a choice of toolsets, naming the
 * largest, so the user learns it at generate time instead of from a client's refusal.
 */
import type { ToolNode } from "../ir.ts";
import { thousands } from "../render/token-cost.ts";
import type { Rule } from "./rule.ts";

/** The most tools VS Code Copilot and the OpenAI API take in one request. */
export const CLIENT_TOOL_LIMIT = 128;
/** How many of the largest toolsets the warning names. */
const NAMED = 3;

export const toolCountRules: Rule = (server, report) => {
  const count = server.tools.length;
  if (count <= CLIENT_TOOL_LIMIT) return;
  const largest = largestToolsets(server.tools).slice(0, NAMED);
  const toolsets =
    largest.length > 1
      ? `, or serve only some toolsets with --toolsets (the largest: ${largest.map((t) => `${t.name} ${t.tools} tools`).join(", ")}; e.g. --toolsets ${largest
          .slice(0, 2)
          .map((t) => t.name)
          .join(",")})`
      : "";
  report(
    "MANY_TOOLS",
    server.origin === "spec" ? "/tools" : "/paths",
    `the server has ${thousands(count)} tools, more than the ${CLIENT_TOOL_LIMIT} that clients such as VS Code Copilot and the OpenAI API accept`,
    { hint: `${dynamicAdvice(server.features)}${toolsets}.` },
  );
};

/** Dynamic mode comes by default over 128 tools; a spec that names its features must name it too. */
function dynamicAdvice(features: readonly string[] | undefined): string {
  const serve = "serve it with --mode dynamic (five tools that search, describe and call the others)";
  if (!features || features.includes("all") || features.includes("dynamic")) return `S${serve.slice(1)}`;
  return `Add dynamic to the features this package is generated with (features: [${[...features, "dynamic"].join(", ")}]) and ${serve}`;
}

/** Toolsets by tool count, largest first (ties by name). */
export function largestToolsets(tools: readonly Pick<ToolNode, "toolset">[]): Array<{ name: string; tools: number }> {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.toolset ?? "default", (counts.get(tool.toolset ?? "default") ?? 0) + 1);
  return [...counts]
    .map(([name, n]) => ({ name, tools: n }))
    .sort((a, b) => b.tools - a.tools || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
