/**
 * What changed in the MCP surface between the package on disk and the one about to be written:
 * tools, resources, templates and prompts added, removed or changed. Shown by `generate --check`.
 */
import type { Catalog } from "../../runtime/package/catalog-types.ts";
import type { OutputDir } from "./output-dir.ts";

// A catalog read back from disk may come from any mcpgen version: its entries are only known to be objects.
type Entry = { [key: string]: unknown };
/** The catalog's four lists (the runtime's Catalog is one), compared entry by entry as JSON. */
// Toolsets are a grouping of tools, not an MCP surface of their own: a tool's move between them shows as "~".
type Surface = { [K in Exclude<keyof Catalog, "toolsets">]: Entry[] };

const KINDS: Array<[keyof Surface, string, string]> = [
  ["tools", "tool", "name"],
  ["resources", "resource", "uri"],
  ["resourceTemplates", "resource template", "uriTemplate"],
  ["prompts", "prompt", "name"],
];

/** The catalog of a package on disk, or an empty surface when there is none (or it is unreadable). */
export function surfaceOnDisk(dir: OutputDir): Surface {
  const empty: Surface = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  const stored = dir.read("src/catalog.json") ?? dir.read("src/manifest.json");
  let surface: unknown;
  try {
    surface = stored === undefined ? legacySurface(dir) : JSON.parse(stored);
  } catch {
    surface = legacySurface(dir);
  }
  return { ...empty, ...(surface as Partial<Surface>) };
}

/**
 * Packages from mcpgen before the catalog had a file of its own (src/manifest.json, now src/catalog.json)
 * held it all in src/manifest.ts (now src/definition.ts).
 */
function legacySurface(dir: OutputDir): unknown {
  const source = dir.read("src/manifest.ts");
  if (source === undefined) return undefined;
  try {
    const start = source.indexOf("= ", source.indexOf("export const manifest")) + 2;
    const literal = source.slice(start, source.lastIndexOf(";"));
    // Large manifests were written as JSON.parse("<the JSON as a string literal>") as Manifest.
    const wrapped = /^JSON\.parse\(([\s\S]*)\) as Manifest$/.exec(literal);
    return JSON.parse(wrapped ? JSON.parse(wrapped[1]) : literal);
  } catch {
    return undefined;
  }
}

/** One change of the MCP surface: `+` added, `~` changed, `-` removed, `>` renamed (from `from`). */
export type SurfaceChange = { change: "+" | "~" | "-" | ">"; kind: string; name: string; from?: string };

/**
 * The changes from `before` to `after`. `renames` maps a tool's new name to its former one
 * (renamedFrom): when the old tool is gone and the new one is new, that is one `>` line, not a `-`
 * and a `+`.
 */
export function surfaceDiff(
  before: Surface,
  after: Surface,
  renames: Map<string, string> = new Map(),
): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  for (const [field, kind, id] of KINDS) {
    const old = new Map(before[field].map((e) => [String(e[id]), JSON.stringify(e)]));
    const now = new Map(after[field].map((e) => [String(e[id]), JSON.stringify(e)]));
    const movedFrom = new Set<string>();
    for (const [name, json] of now) {
      const from = field === "tools" ? renames.get(name) : undefined;
      if (!old.has(name) && from !== undefined && old.has(from) && !now.has(from)) {
        changes.push({ change: ">", kind, name, from });
        movedFrom.add(from);
      } else if (!old.has(name)) changes.push({ change: "+", kind, name });
      else if (old.get(name) !== json) changes.push({ change: "~", kind, name });
    }
    for (const name of old.keys())
      if (!now.has(name) && !movedFrom.has(name)) changes.push({ change: "-", kind, name });
  }
  return changes;
}

/** `+ tool x`, `> tool old -> new`: the text form the CLI prints. */
export function surfaceLine(change: SurfaceChange): string {
  const subject = change.from === undefined ? change.name : `${change.from} -> ${change.name}`;
  return `${change.change} ${change.kind} ${subject}`;
}

export function surfaceChanges(before: Surface, after: Surface, renames?: Map<string, string>): string[] {
  return surfaceDiff(before, after, renames).map(surfaceLine);
}
