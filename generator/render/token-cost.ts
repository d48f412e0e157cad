/**
 * What a generated server's `tools/list` costs an agent, in tokens of a real tokenizer (o200k_base, the
 * encoding of GPT-4o and later): in `all` mode, per toolset (`--toolsets <one>`), and in dynamic mode.
 * Pure functions of the catalog, so generate (its cost line, the README) and bench/tokens.ts agree.
 *
 * What is counted is the JSON text of the result `{"tools":[...]}` as the server sends it: each tool with
 * its wire fields in the server's order (runtime/server/methods.ts), without `http` or `toolset`, and each
 * schema whole with its `$defs` last, as readCatalog rebuilds them. Pagination is ignored: an agent that
 * lists every tool pays for all pages.
 */
import { createRequire } from "node:module";
import { DYNAMIC_TOOLS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import type { CatalogTool, CatalogToolset } from "../../runtime/package/catalog-types.ts";
import type { Tool } from "../../runtime/protocol/types.ts";
import { remember } from "../output/answer-memo.ts";

/** The tool fields tools/list sends, in its order (runtime/server/methods.ts's TOOL_FIELDS). */
const TOOL_FIELDS = [
  "name",
  "title",
  "description",
  "icons",
  "_meta",
  "inputSchema",
  "outputSchema",
  "annotations",
  "execution",
];
const DEFAULT_TOOLSET = "default";

type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;
let counter: Counter | undefined;

/**
 * Tokens of `text` in o200k_base. Text that spells a special token (`<|endoftext|>` in a description)
 * counts as the plain text it is, as a client sending it would encode it. The encoding (300 ms to load)
 * is read on first use, so a package without tools never pays for it.
 */
export function countTokens(text: string): number {
  counter ??= (createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter })
    .countTokens;
  return counter(text, { disallowedSpecial: new Set() });
}

/** A tool as tools/list sends it: wire fields only, in the server's order, each `$defs` last. */
export function servedTool(tool: CatalogTool | Tool): Tool {
  const source = tool as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of TOOL_FIELDS) {
    const value = source[field];
    if (value === undefined) continue;
    out[field] = field === "inputSchema" || field === "outputSchema" ? defsLast(value) : value;
  }
  return out as Tool;
}

/** readCatalog stores `$defs` apart and puts them back at the end of the schema. */
function defsLast(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || !("$defs" in schema)) return schema;
  const { $defs, ...rest } = schema as { $defs: unknown };
  return typeof $defs === "object" && $defs !== null && !Array.isArray($defs) ? { ...rest, $defs } : schema;
}

export type ToolsetCost = { name: string; description?: string; tools: number; tokens: number };
export type ListCost = { tools: number; tokens: number };
/** tools/list in every mode; `perTool` is each tool's share of the `all` list, in catalog order. */
export type ToolListCost = {
  all: ListCost;
  dynamic: ListCost;
  toolsets: ToolsetCost[];
  perTool: Array<{ name: string; toolset: string; tokens: number }>;
};

// o200k splits text into pieces before byte-pair merging, and merges never cross a piece. Every tool's
// JSON starts `{"name":`, and `name` always starts a piece (what precedes it, `[{"` or `},{"`, is one run
// of punctuation). So a list's count is exactly the sum of its pieces: the head `{"tools":[{"`, then per
// tool its text from `name` up to and including what follows it (`,{"` before another tool, `]}` at the
// end). Each tool is counted once; a list ending with it adds one recount of the tool with `]}`.
const HEAD = '{"tools":[{"';
const NEXT = ',{"';
const END = "]}";
const EMPTY_LIST = '{"tools":[]}';

/** The cost of tools/list for these tools, per toolset, and in dynamic mode. */
export function toolListCost(tools: readonly CatalogTool[], toolsets: readonly CatalogToolset[] = []): ToolListCost {
  const bodies = tools.map((tool) => {
    const json = JSON.stringify(servedTool(tool));
    if (!json.startsWith('{"name":')) throw new Error(`tool '${tool.name}' does not serialize with its name first`);
    return json.slice(2);
  });
  const toolsetOf = (tool: CatalogTool) => tool.toolset ?? DEFAULT_TOOLSET;
  const members = new Map<string, number[]>();
  tools.forEach((tool, index) => {
    const list = members.get(toolsetOf(tool)) ?? [];
    list.push(index);
    members.set(toolsetOf(tool), list);
  });
  // Every text counted, at once: the head, the empty list, each tool's share, each list's last tool with END.
  const lasts = [...new Set([tools.length - 1, ...[...members.values()].map((list) => list[list.length - 1])])].filter(
    (index) => index >= 0,
  );
  // Texts are made when read (each tool's with NEXT, then the last ones' with END): the list of them all
  // would hold every tool's JSON a second time (Microsoft Graph's are 18M tokens).
  const counts = countAll(bodies.length + lasts.length + 2, (index) =>
    index === 0
      ? HEAD
      : index === 1
        ? EMPTY_LIST
        : index < bodies.length + 2
          ? bodies[index - 2] + NEXT
          : bodies[lasts[index - 2 - bodies.length]] + END,
  );
  const [head, empty] = counts;
  const shares = counts.slice(2, 2 + bodies.length);
  const ended = new Map(lasts.map((index, n) => [index, counts[2 + bodies.length + n]]));
  const listTokens = (list: number[]): number => {
    if (list.length === 0) return empty;
    const last = list[list.length - 1];
    let sum = head - shares[last] + (ended.get(last) ?? 0);
    for (const index of list) sum += shares[index];
    return sum;
  };
  const described = new Map(toolsets.map((t) => [t.name, t.description]));
  const names = [...members.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    all: { tools: tools.length, tokens: listTokens(tools.map((_, index) => index)) },
    dynamic: dynamicCost(),
    toolsets: names.map((name) => {
      const list = members.get(name) ?? [];
      const description = described.get(name);
      return { name, ...(description ? { description } : {}), tools: list.length, tokens: listTokens(list) };
    }),
    perTool: tools.map((tool, index) => ({ name: tool.name, toolset: toolsetOf(tool), tokens: shares[index] })),
  };
}

/**
 * The counts of `texts`, each remembered by its text (output/answer-memo.ts, within a package's
 * withMemo): a regenerate counts only the tools that changed, and with none changed neither counts nor
 * loads the encoding (0.3 s).
 */
function countAll(length: number, text: (index: number) => string): number[] {
  return Array.from({ length }, (_, index) => {
    const piece = text(index);
    return Number(remember("tokens", "o200k", piece, () => String(countTokens(piece)), isCount));
  });
}

/** A stored count is a whole number (15 digits at most: every one a safe integer). */
const isCount = (answer: string) => /^\d{1,15}$/.test(answer);

/** What generate reports (and its fingerprint replays): the per-tool figures stay with bench; the dynamic
 * figure only for a package that has dynamic mode. */
export type ToolsListCost = Omit<ToolListCost, "perTool" | "dynamic"> & { dynamic?: ListCost };

let dynamic: ListCost | undefined;

/** Dynamic mode lists the same five tools for every API. */
export function dynamicCost(): ListCost {
  dynamic ??= {
    tools: DYNAMIC_TOOLS.length,
    tokens: countAll(1, () => JSON.stringify({ tools: DYNAMIC_TOOLS.map(servedTool) }))[0],
  };
  return dynamic;
}

/** 1234567 → "1,234,567", whatever the locale. */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A count for one line of text: exact below 10,000 ("9,876"), then K and M with at most one decimal
 * below 100 of the unit ("38.5K", "124K", "1.1M"). */
export function shortCount(n: number): string {
  if (n < 10_000) return thousands(n);
  const [unit, suffix] = n >= 999_500 ? [1_000_000, "M"] : [1_000, "K"];
  const value = n / unit;
  const text = value < 99.95 ? value.toFixed(1) : thousands(value);
  return `${text.replace(/\.0$/, "")}${suffix}`;
}

const tools = (n: number) => `${thousands(n)} tool${n === 1 ? "" : "s"}`;

/** generate's line: `tools/list: 1,223 tools, 1.1M tokens (all) | 5 tools, 1,032 tokens (dynamic)`, the
 * second part only for a package with dynamic mode. */
export function costLine(cost: Pick<ToolsListCost, "all" | "dynamic">): string {
  const mode = (list: ListCost, name: string) => `${tools(list.tools)}, ${shortCount(list.tokens)} tokens (${name})`;
  return `tools/list: ${mode(cost.all, "all")}${cost.dynamic ? ` | ${mode(cost.dynamic, "dynamic")}` : ""}`;
}
