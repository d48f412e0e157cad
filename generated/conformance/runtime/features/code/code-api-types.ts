// SEAM for code mode (issue #15): what `mcpgen generate` writes to src/code-api.json so `search_docs`
// can answer with TypeScript declarations an agent codes against, pruned to what they reference.

/** src/code-api.json */
export type CodeApiFile = {
  /** Per tool name: its declaration inside `declare const api: { ... }`, with a one-line doc comment. e.g.
   * "/** Get an issue. *\/\nissues_get(args: { owner: string; repo: string; issue_number: number; _fields?: string[] }): Promise<Issue>;" */
  tools: Record<string, { declaration: string; types: string[] }>;
  /** Named types by name: their `type X = ...` text and the names of the types they reference. */
  types: Record<string, { declaration: string; types: string[] }>;
};
