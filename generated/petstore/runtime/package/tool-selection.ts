// Which tools a server serves (docs/reference/server-flags.md): --toolsets and --read-only. A tool
// left out is not listed, not searchable, not callable. Toolset names are checked against definition.ts's `toolsetNames`, not the catalog.
import type { CatalogTool } from "./catalog-types.ts";

const DEFAULT_TOOLSET = "default";
const ALL_TOOLSETS = "all";
export type ToolSelection = { toolsets?: readonly string[]; readOnly?: boolean }; // toolsets undefined: all
export const toolsetOf = (tool: CatalogTool): string => tool.toolset ?? DEFAULT_TOOLSET;

export function selects(selection: ToolSelection, tool: CatalogTool): boolean {
  if (selection.readOnly && tool.annotations?.readOnlyHint !== true) return false;
  return selection.toolsets === undefined || selection.toolsets.includes(toolsetOf(tool));
}

/** `--toolsets` (or MCP_TOOLSETS) if given as a list (undefined: all), or the error naming an unknown toolset. */
export function parseToolsets(
  text: unknown,
  source: string,
  known = [DEFAULT_TOOLSET],
): { toolsets?: string[] } | { error: string } {
  if (typeof text !== "string") return {};
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) return { error: `${source} names no toolset: give a comma-separated list, or 'all'` };
  if (names.includes(ALL_TOOLSETS)) return {};
  const unknown = names.filter((name) => !known.includes(name));
  const which = unknown.map((name) => `'${name}'${didYouMean(name, known)}`).join(", ");
  const all = [ALL_TOOLSETS, ...known].join(", ");
  if (unknown.length > 0) return { error: `${source}: unknown toolset ${which}; this server's toolsets are: ${all}` };
  return { toolsets: [...new Set(names)] };
}

/** Why a tool that exists is not served, for the error a call of it gets: "exists but is not enabled...". */
export function notEnabledReason(selection: ToolSelection, tool: CatalogTool): string {
  const reasons: string[] = [];
  if (selection.toolsets !== undefined && !selection.toolsets.includes(toolsetOf(tool)))
    reasons.push(`its toolset '${toolsetOf(tool)}' is not in --toolsets (${selection.toolsets.join(",")})`);
  if (selection.readOnly && tool.annotations?.readOnlyHint !== true)
    reasons.push("it is not read-only and the server runs with --read-only");
  return `exists but is not enabled on this server: ${reasons.join(", and ")}`;
}

/** " (did you mean 'x' or 'y'?)": the (at most 3) closest names within about one typo per 3 characters, or "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const typed = word.toLowerCase();
  const budget = Math.max(1, Math.floor(typed.length / 3));
  const scored = [...candidates]
    .map((name) => ({ name, distance: editDistance(typed, name.toLowerCase(), budget) }))
    .filter((entry) => entry.distance <= budget);
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  const close = scored.slice(0, 3).map((entry) => `'${entry.name}'`);
  return close.length === 0 ? "" : ` (did you mean ${close.join(" or ")}?)`;
}

/** Levenshtein, giving up (returning budget + 1) once it cannot stay within it: GitHub has 1,000+ tool names. */
function editDistance(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      best = Math.min(best, current[j]);
    }
    if (best > budget) return budget + 1;
    previous = current;
  }
  return previous[b.length];
}
