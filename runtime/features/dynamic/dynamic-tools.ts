// Dynamic mode's tools, listed instead of the server's own (docs/large-apis.md#toolsets-and-dynamic-mode): an agent
// searches or browses the catalog, reads the definitions it needs, and calls a tool through `call_tool`. Their
// names and argument names are part of the contract; descriptions are short because every agent
// session pays for them.
import type { Tool } from "../../protocol/types.ts";

/** Results per search_tools call: the default, and the most an agent may ask for. */
export const SEARCH_LIMIT = { default: 10, max: 50 } as const;
/** Names per describe_tools call at most. */
export const DESCRIBE_LIMIT = 20;
/** A tool's one-line description in search and browse results: its first sentence, at most this long. */
export const SUMMARY_CHARS = 200;

const toolSummary = {
  type: "object",
  properties: {
    name: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    toolset: { type: "string" },
  },
  required: ["name", "description", "toolset"],
};

export const DYNAMIC_TOOLS: Tool[] = [
  {
    name: "search_tools",
    description:
      "Find this server's tools for a task described in plain words; best match first. Then describe_tools to read their arguments and call_tool to run one.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What you want to do, in plain words" },
        limit: { type: "integer", minimum: 1, maximum: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default },
        toolset: { type: "string", description: "Search only this toolset (see list_toolsets)" },
      },
      required: ["query"],
    },
    outputSchema: {
      type: "object",
      properties: { tools: { type: "array", items: toolSummary } },
      required: ["tools"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "list_toolsets",
    description: "List the groups of tools this server offers, with how many tools each has.",
    inputSchema: { type: "object", properties: {} },
    outputSchema: {
      type: "object",
      properties: {
        toolsets: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, description: { type: "string" }, tools: { type: "integer" } },
            required: ["name", "tools"],
          },
        },
      },
      required: ["toolsets"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "list_tools",
    description: "List the tools of one toolset with a one-line description each; pass nextCursor back for more.",
    inputSchema: {
      type: "object",
      properties: { toolset: { type: "string" }, cursor: { type: "string" } },
      required: ["toolset"],
    },
    outputSchema: {
      type: "object",
      properties: { tools: { type: "array", items: toolSummary }, nextCursor: { type: "string" } },
      required: ["tools"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "describe_tools",
    description: "Get the full definitions (input schema, annotations) of tools by name, before calling them.",
    inputSchema: {
      type: "object",
      properties: {
        names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: DESCRIBE_LIMIT },
      },
      required: ["names"],
    },
    outputSchema: {
      type: "object",
      properties: {
        tools: { type: "array", items: { type: "object" } },
        unknown: { type: "array", items: { type: "string" } },
      },
      required: ["tools"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "call_tool",
    description: "Call one of this server's tools by name with its arguments; the result is that tool's own.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string" },
        arguments: { type: "object", description: "The tool's arguments, as describe_tools states them" },
      },
      required: ["name"],
    },
  },
];

/** MCP's defaults for a tool's behaviour hints: what a client reads a hint left out as. */
export const DEFAULT_TOOL_HINTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;
