/**
 * The config file's `toolsets` entry (issue 14 §1): `{ pulls: "code", git: "code" }` renames toolset
 * `pulls` to `code` and merges `git` into it. Applied to the IR right after loading, so every later stage
 * (rules, catalog, README) sees the final names. A source naming no toolset of the spec is a warning
 * with a did-you-mean: the entry would do nothing, likely a typo.
 */
import { ownValue } from "../../runtime/protocol/codec.ts";
import type { DiagnosticBag, Locator } from "../diagnostics/diagnostic.ts";
import { closest } from "../diagnostics/spelling.ts";
import type { ServerNode } from "../ir.ts";
import { DEFAULT_TOOLSET } from "../normalize/toolset-names.ts";
import { childPointer } from "../source/json-pointer.ts";

/** The entry as the config states it (checked by check-config.ts), and where, for diagnostics. */
export type ToolsetMap = { map: Record<string, string>; file: string; locate: Locator; pointer: string };

export function applyToolsetMap(server: ServerNode, config: ToolsetMap | undefined, bag: DiagnosticBag): void {
  if (!config) return;
  const existing = [...new Set(server.tools.map((tool) => tool.toolset ?? DEFAULT_TOOLSET))].sort();
  const report = bag.reporter(config.file, config.locate);
  const rename = new Map<string, string>();
  for (const [from, to] of Object.entries(config.map)) {
    if (existing.includes(from)) rename.set(from, to);
    else {
      const guess = closest(from, existing);
      report("CONFIG_TOOLSET_UNKNOWN", childPointer(config.pointer, from), `no tool is in a toolset '${from}'`, {
        at: "key",
        hint: guess ? `did you mean '${guess}'?` : `the spec's toolsets are: ${existing.join(", ") || "(none)"}`,
      });
    }
  }
  if (rename.size === 0) return;
  for (const tool of server.tools) {
    const to = rename.get(tool.toolset ?? DEFAULT_TOOLSET);
    if (to !== undefined) tool.toolset = to;
  }
  const descriptions = server.toolsetDescriptions;
  if (!descriptions) return;
  // A merged toolset keeps the description its target had, else takes its first source's.
  const merged: Record<string, string> = {};
  for (const [name, description] of Object.entries(descriptions)) if (!rename.has(name)) merged[name] = description;
  for (const [from, to] of rename) {
    const description = ownValue(descriptions, from);
    if (description !== undefined && ownValue(merged, to) === undefined) merged[to] = description;
  }
  server.toolsetDescriptions = merged;
}
