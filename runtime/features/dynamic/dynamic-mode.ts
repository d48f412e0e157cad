// `--mode dynamic` (docs/large-apis.md#toolsets-and-dynamic-mode): tools/list gives only dynamic-tools.ts's five, so
// an agent pays for five definitions instead of a large API's thousand; it searches or browses the catalog,
// reads the definitions it needs (describe_tools) and runs a tool through call_tool, which the server
// turns into a direct tools/call of it (server/features.ts), so validation, the upstream call and
// the result are the tool's own. The real tools stay registered, unlisted, so a direct tools/call of
// their names works too. Everything here sees only the tools --toolsets and --read-only serve.
import { existsSync } from "node:fs";
import type { CatalogTool } from "../../package/catalog-types.ts";
import type { ModeCatalog } from "../../package/feature.ts";
import { didYouMean, toolsetOf } from "../../package/tool-selection.ts";
import { isObject } from "../../protocol/codec.ts";
import type { CallToolResult, JsonObject } from "../../protocol/types.ts";
import type { ToolSearch } from "../../search/tool-search.ts";
import { forwardTo, showsTool } from "../../server/features.ts";
import { toolListing } from "../../server/methods.ts";
import type { McpServer } from "../../server/server.ts";
import type { ToolHandlerResult } from "../../server/types.ts";
import { DEFAULT_TOOL_HINTS, DESCRIBE_LIMIT, DYNAMIC_TOOLS, SEARCH_LIMIT, SUMMARY_CHARS } from "./dynamic-tools.ts";

/** Tools per list_tools page. */
export const LIST_PAGE_SIZE = 50;
/** The `_meta` key of call_tool's result that carries the called tool's annotations (reverse-DNS prefix,
 * as the MCP spec asks of implementation-defined keys). */
export const ANNOTATIONS_META_KEY = "dev.mcpgen/annotations";

/** What dynamic (and code) mode see of the catalog. */
export type DynamicCatalog = ModeCatalog;

type ToolSummary = { name: string; title?: string; description: string; toolset: string };

/** What the five tools share: the served tools by toolset, and the search, loaded on first use. */
type DynamicState = {
  server: McpServer;
  catalog: DynamicCatalog;
  byToolset: Map<string, CatalogTool[]>;
  toolsetNames: string[];
  search?: ToolSearch;
};

type Args = Record<string, unknown>;
type Ctx = Parameters<Parameters<McpServer["tool"]>[0]["handler"]>[1];

export function registerDynamicTools(server: McpServer, catalog: DynamicCatalog): void {
  const byToolset = new Map<string, CatalogTool[]>();
  for (const tool of catalog.served.values()) {
    const list = byToolset.get(toolsetOf(tool)) ?? [];
    list.push(tool);
    byToolset.set(toolsetOf(tool), list);
  }
  const state: DynamicState = { server, catalog, byToolset, toolsetNames: [...byToolset.keys()].sort() };
  const definition = (name: string) => {
    const tool = DYNAMIC_TOOLS.find((t) => t.name === name);
    if (!tool) throw new Error(`no dynamic tool ${name}`);
    return tool;
  };
  server.tool({ ...definition("search_tools"), handler: (args, ctx) => searchTools(state, args, ctx) });
  server.tool({ ...definition("list_toolsets"), handler: () => listToolsets(state) });
  server.tool({ ...definition("list_tools"), handler: (args, ctx) => listTools(state, args, ctx) });
  server.tool({ ...definition("describe_tools"), handler: (args, ctx) => describeTools(state, args, ctx) });
  server.tool({
    ...definition("call_tool"),
    // The inner call's Mcp-Param-* headers are checked as a direct call of the tool would have them.
    forwardsTo: (args) =>
      typeof args.name === "string" && catalog.served.has(args.name)
        ? { name: args.name, arguments: args.arguments ?? {} }
        : undefined,
    handler: (args, ctx) => callTool(state, args, ctx),
  });
}

function unknownToolset(state: DynamicState, name: string): ToolHandlerResult {
  return failure(
    `Unknown toolset '${name}'${didYouMean(name, state.toolsetNames)}; this server's toolsets are: ${state.toolsetNames.join(", ")} (see list_toolsets)`,
  );
}

async function searchTools(state: DynamicState, args: Args, ctx: Ctx): Promise<ToolHandlerResult> {
  const bad =
    badArgument(typeof args.query === "string" && args.query.trim() !== "", "query must be a non-empty string") ??
    badArgument(
      args.limit === undefined ||
        (Number.isInteger(args.limit) && Number(args.limit) >= 1 && Number(args.limit) <= SEARCH_LIMIT.max),
      `limit must be a whole number from 1 to ${SEARCH_LIMIT.max}`,
    ) ??
    badArgument(args.toolset === undefined || typeof args.toolset === "string", "toolset must be a string");
  if (bad) return bad;
  const query = String(args.query);
  const limit = typeof args.limit === "number" ? args.limit : SEARCH_LIMIT.default;
  const toolset = typeof args.toolset === "string" ? args.toolset : undefined;
  if (toolset !== undefined && !state.byToolset.has(toolset)) return unknownToolset(state, toolset);
  // Loaded on the first search, not at start-up: the ranking library and the index cost 10-80 ms.
  state.search ??= (await import("../../search/tool-search.ts")).createToolSearch(
    state.catalog.all,
    searchIndexFile(),
    state.catalog.toolsets,
  );
  const names = state.search.search(query, {
    limit,
    allowed: (name) => state.catalog.served.has(name) && showsTool(state.server, name, ctx.auth),
    ...(toolset !== undefined ? { toolset } : {}),
  });
  const tools = names.flatMap((name) => {
    const tool = state.catalog.served.get(name);
    return tool ? [summaryOf(tool)] : [];
  });
  const text =
    tools.length === 0
      ? `No tool matches '${query}'. Try other words, or browse with list_toolsets and list_tools.`
      : summaryText(tools);
  return { structuredContent: { tools }, content: [{ type: "text", text }] };
}

function listToolsets(state: DynamicState): ToolHandlerResult {
  const described = new Map(state.catalog.toolsets.map((t) => [t.name, t.description]));
  const toolsets = state.toolsetNames.map((name) => {
    const description = described.get(name);
    return { name, ...(description ? { description } : {}), tools: state.byToolset.get(name)?.length ?? 0 };
  });
  const text = toolsets
    .map((t) => `${t.name} (${t.tools} tool${t.tools === 1 ? "" : "s"})${t.description ? `: ${t.description}` : ""}`)
    .join("\n");
  return { structuredContent: { toolsets }, content: [{ type: "text", text: text || "No tools are enabled." }] };
}

function listTools(state: DynamicState, args: Args, ctx: Ctx): ToolHandlerResult {
  const bad =
    badArgument(typeof args.toolset === "string", "toolset must be a string (see list_toolsets)") ??
    badArgument(args.cursor === undefined || typeof args.cursor === "string", "cursor must be a string");
  if (bad) return bad;
  const toolset = String(args.toolset);
  const inToolset = state.byToolset.get(toolset);
  if (!inToolset) return unknownToolset(state, toolset);
  const tools = inToolset.filter((tool) => showsTool(state.server, tool.name, ctx.auth));
  let offset = 0;
  if (args.cursor !== undefined) {
    const opened = state.server.sealer.open(String(args.cursor));
    if (!isObject(opened) || opened.kind !== "list_tools" || opened.toolset !== toolset || !isOffset(opened.offset))
      return failure(
        `Invalid cursor for toolset '${toolset}': pass back the nextCursor of the previous list_tools call, unchanged, with the same toolset`,
      );
    offset = opened.offset;
  }
  const page = tools.slice(offset, offset + LIST_PAGE_SIZE).map(summaryOf);
  const next = offset + LIST_PAGE_SIZE < tools.length ? offset + LIST_PAGE_SIZE : undefined;
  const structured: JsonObject = { tools: page };
  if (next !== undefined)
    structured.nextCursor = state.server.sealer.seal({ kind: "list_tools", toolset, offset: next });
  const more = next === undefined ? "" : `\n(${tools.length - next} more: call list_tools again with this nextCursor)`;
  return { structuredContent: structured, content: [{ type: "text", text: `${summaryText(page)}${more}` }] };
}

function describeTools(state: DynamicState, args: Args, ctx: Ctx): ToolHandlerResult {
  const bad = badArgument(
    Array.isArray(args.names) &&
      args.names.length >= 1 &&
      args.names.length <= DESCRIBE_LIMIT &&
      args.names.every((name) => typeof name === "string"),
    `names must be a list of 1 to ${DESCRIBE_LIMIT} tool names`,
  );
  if (bad) return bad;
  const names = (args.names as string[]).slice(0, DESCRIBE_LIMIT);
  const tools: unknown[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const visible = state.catalog.served.has(name) && showsTool(state.server, name, ctx.auth);
    const registered = visible ? state.server.tools.get(name) : undefined;
    if (registered) tools.push(toolListing(registered));
    else unknown.push(name);
  }
  const seen = (name: string) => showsTool(state.server, name, ctx.auth);
  if (tools.length === 0)
    return failure(`No such tool: ${unknown.map((name) => unknownToolText(name, state.catalog, seen)).join("; ")}`);
  const notes = unknown.map((name) => unknownToolText(name, state.catalog, seen));
  return {
    structuredContent: { tools, ...(unknown.length > 0 ? { unknown } : {}) },
    content: [
      { type: "text", text: JSON.stringify(tools) },
      ...(notes.length > 0 ? [{ type: "text" as const, text: `Not found: ${notes.join("; ")}` }] : []),
    ],
  };
}

function callTool(state: DynamicState, args: Args, ctx: Ctx): ToolHandlerResult {
  const bad =
    badArgument(typeof args.name === "string", "name must be a string: the tool to call") ??
    badArgument(
      args.arguments === undefined || isObject(args.arguments),
      "arguments must be an object: the tool's arguments, as describe_tools states them",
    );
  if (bad) return bad;
  const name = String(args.name);
  const tool = state.catalog.served.get(name);
  if (!tool) return failure(unknownToolText(name, state.catalog, (n) => showsTool(state.server, n, ctx.auth)));
  const meta = { [ANNOTATIONS_META_KEY]: statedHints(tool.annotations) };
  return forwardTo({ name, arguments: args.arguments ?? {}, meta });
}

/**
 * The hints call_tool reports: every one stated, MCP's default where the tool leaves one out (tools/list
 * omits defaults to save tokens), so an agent calling through call_tool sees what the tool may do without
 * a describe_tools. destructiveHint and idempotentHint mean something only for a tool that writes (MCP),
 * so a read-only tool is reported without them rather than as "destructive".
 */
function statedHints(annotations: CatalogTool["annotations"]): Record<string, unknown> {
  const hints: Record<string, unknown> = { ...DEFAULT_TOOL_HINTS, ...annotations };
  if (hints.readOnlyHint === true) {
    delete hints.destructiveHint;
    delete hints.idempotentHint;
  }
  return hints;
}

/** Where `mcpgen generate` writes the search index: src/search-index.json, beside src/catalog.json (this
 * file is <package>/runtime/features/dynamic/dynamic-mode.ts). Undefined when the package has none. */
function searchIndexFile(): URL | undefined {
  const file = new URL("../../src/search-index.json", import.meta.url);
  return existsSync(file) ? file : undefined;
}

/**
 * What a name that is no served tool gets told: whether it exists but is disabled, close names, and how
 * to find tools. Close names come only from the tools `visible` to this caller (its token's scopes): a
 * suggestion must not name a tool the caller's listing hides.
 */
function unknownToolText(name: string, catalog: DynamicCatalog, visible: (name: string) => boolean): string {
  const reason = catalog.notEnabled(name, visible);
  if (reason) return `${reason}.`;
  return `Unknown tool '${name}'${didYouMean(name, visibleNames(catalog, visible))}. Use search_tools to find a tool by what it does.`;
}

/** The served tools a caller may see, for suggestions. */
export function visibleNames(catalog: DynamicCatalog, visible: (name: string) => boolean): string[] {
  return [...catalog.served.keys()].filter(visible);
}

/** A tool's one-line entry in search and browse results. */
function summaryOf(tool: CatalogTool): ToolSummary {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: firstSentence(tool.description ?? tool.title ?? ""),
    toolset: toolsetOf(tool),
  };
}

/** The first sentence (or line) of a description, at most SUMMARY_CHARS characters, cut at a word. */
export function firstSentence(text: string): string {
  const line = text.trim().split(/\n/)[0].trim();
  const end = /[.!?](?=\s|$)/.exec(line);
  const sentence = end ? line.slice(0, end.index + 1) : line;
  if (sentence.length <= SUMMARY_CHARS) return sentence;
  const cut = sentence.slice(0, SUMMARY_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

function summaryText(tools: ToolSummary[]): string {
  return tools.map((t) => `${t.name} [${t.toolset}]: ${t.description}`).join("\n");
}

/** The error result for a malformed argument of a dynamic tool (the server has no validators for them). */
function badArgument(ok: boolean, message: string): ToolHandlerResult | undefined {
  return ok ? undefined : failure(`Invalid arguments: ${message}`);
}

function failure(text: string): ToolHandlerResult & CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
