/**
 * What changed in the MCP surface between the package on disk and the one about to be written:
 * tools, resources, templates and prompts added, removed or changed. Shown by `generate --check`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

type Entry = { [key: string]: unknown };
type Surface = { tools: Entry[]; resources: Entry[]; resourceTemplates: Entry[]; prompts: Entry[] };

const KINDS: Array<[keyof Surface, string, string]> = [
  ["tools", "tool", "name"],
  ["resources", "resource", "uri"],
  ["resourceTemplates", "resource template", "uriTemplate"],
  ["prompts", "prompt", "name"],
];

/** The catalog of a package on disk, or an empty surface when there is none (or it is unreadable). */
export function surfaceOnDisk(outDir: string): Surface {
  const empty: Surface = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  let surface: unknown;
  try {
    surface = JSON.parse(readFileSync(join(outDir, "src/manifest.json"), "utf8"));
  } catch {
    surface = legacySurface(outDir);
  }
  return { ...empty, ...(surface as Partial<Surface>) };
}

/** Packages from mcpgen before the catalog moved to manifest.json held it all in src/manifest.ts. */
function legacySurface(outDir: string): unknown {
  try {
    const source = readFileSync(join(outDir, "src/manifest.ts"), "utf8");
    const start = source.indexOf("= ", source.indexOf("export const manifest")) + 2;
    const literal = source.slice(start, source.lastIndexOf(";"));
    // Large manifests were written as JSON.parse("<the JSON as a string literal>") as Manifest.
    const wrapped = /^JSON\.parse\(([\s\S]*)\) as Manifest$/.exec(literal);
    return JSON.parse(wrapped ? JSON.parse(wrapped[1]) : literal);
  } catch {
    return undefined;
  }
}

export function surfaceChanges(before: Surface, after: Surface): string[] {
  const lines: string[] = [];
  for (const [field, kind, id] of KINDS) {
    const old = new Map(before[field].map((e) => [String(e[id]), JSON.stringify(e)]));
    const now = new Map(after[field].map((e) => [String(e[id]), JSON.stringify(e)]));
    for (const [name, json] of now) {
      if (!old.has(name)) lines.push(`+ ${kind} ${name}`);
      else if (old.get(name) !== json) lines.push(`~ ${kind} ${name}`);
    }
    for (const name of old.keys()) if (!now.has(name)) lines.push(`- ${kind} ${name}`);
  }
  return lines;
}
