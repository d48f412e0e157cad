/**
 * The Markdown tables of a generated server's flags, made from their records (the core's,
 * runtime/package/core-flags.ts, and each feature's flags.ts): docs/reference/server-flags.md and the package
 * README's per-feature tables. The records are mcpgen's own text, not a spec's, so they are not escaped
 * beyond table pipes.
 */

import { CORE_FLAG_SETS } from "../../runtime/package/core-flags.ts";
import { type FlagGroup, flagsOf, type ServerFlag } from "../../runtime/package/server-flags.ts";
import { ALL_FLAG_SETS, FEATURE_MODULES } from "../normalize/features.ts";

/** Outside code spans: flags and words with underscores (env names, `jwks_uri`) become code, so Markdown
 * reads no emphasis into them; `<`/`>` become entities (`<host>` is no HTML tag). */
function prose(text: string): string {
  return text
    .replace(/(^|[\s(])(--[a-z][a-z0-9-]*|[A-Za-z0-9.]*_[A-Za-z0-9_]+)/g, "$1`$2`")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** A table cell: pipes escaped, prose outside code spans made safe (scripts/docs.ts uses it for every reference table). */
export const cell = (text: string) =>
  text
    .replaceAll("|", "\\|")
    .split("`")
    .map((part, index) => (index % 2 === 1 ? part : prose(part)))
    .join("`");

/** A Markdown table of cells already made safe (`cell`). */
export const mdTable = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");

function flagCell(entry: ServerFlag): string {
  if (!entry.flag) return "";
  return `\`--${entry.flag}${entry.arg ? ` ${entry.arg.replaceAll("|", "\\|")}` : ""}\``;
}

function envCell(entry: ServerFlag): string {
  if (!entry.env) return "";
  return `\`${entry.env}${entry.kind === "boolean" ? "=1" : ""}\``;
}

function defaultCell(entry: ServerFlag): string {
  if (entry.kind === "boolean") return "off";
  if (entry.default !== undefined) return entry.default;
  return entry.defaultText === undefined ? "unset" : cell(entry.defaultText);
}

function whatCell(entry: ServerFlag): string {
  const text = entry.doc ?? entry.help;
  const scope = entry.http && !/^HTTP only/.test(text) ? "HTTP only: " : "";
  return cell(`${scope}${text}`);
}

/**
 * Every flag and env variable of the given groups (all by default): flag, env twin, default, what. `links:
 * false` keeps a cell's link text and drops its target: a package README, whose sections are not mcpgen's
 * docs pages, links to nothing (scripts/docs.ts points the targets at those pages).
 */
export function flagTable(groups?: readonly FlagGroup[], { links = true } = {}): string {
  // One feature's table lists all its flags, those another feature lists first (MCP_UPSTREAM_CLIENT_ID) too.
  const sets = groups
    ? [...CORE_FLAG_SETS, ...FEATURE_MODULES.flatMap((f) => (f.flags ? [f.flags] : []))]
    : ALL_FLAG_SETS;
  const rows = flagsOf(sets.filter((set) => !groups || groups.includes(set.group))).map((entry) => {
    const what = links ? whatCell(entry) : whatCell(entry).replace(/\[([^\]]*)\]\(#[^)]*\)/g, "$1");
    return [flagCell(entry), envCell(entry), defaultCell(entry), what];
  });
  return mdTable(["flag", "env twin", "default", "what it does"], rows);
}
