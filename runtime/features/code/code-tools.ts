// Code mode's tools, listed instead of the server's own (docs/large-apis.md#code-mode): search_docs answers with the
// TypeScript declarations of the matching tools, execute runs a program against them in a sandbox.
// Names and argument names are part of the contract; descriptions are short because every session pays for them.
import type { Tool } from "../../protocol/types.ts";

/** Tools per search_docs call: the default, and the most an agent may ask for. */
export const DOCS_LIMIT = { default: 5, max: 20 } as const;

export const CODE_TOOLS: Tool[] = [
  {
    name: "search_docs",
    description:
      "Find this server's API functions for a task described in plain words: answers their TypeScript declarations (api.<name>(args)), best match first, to use in execute.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What you want to do, in plain words" },
        limit: { type: "integer", minimum: 1, maximum: DOCS_LIMIT.max, default: DOCS_LIMIT.default },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "execute",
    description:
      "Run JavaScript as the body of an async function in a sandbox: `await api.<name>(args)` calls the API (declarations from search_docs) and rejects with { status, message } on an error; console.log is captured. Return the answer: it comes back as JSON with the logs.",
    inputSchema: {
      type: "object",
      properties: { code: { type: "string", description: "The function body; `return` the result" } },
      required: ["code"],
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
];
