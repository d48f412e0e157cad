// The methods both protocol revisions share; each revision adds its own (revision-2025.ts, revision-2026.ts).
import { isObject } from "../protocol/codec.ts";
import { invalidParams } from "../protocol/errors.ts";
import type { Result } from "../protocol/types.ts";
import { callTool, complete, getPrompt, readResource, showsTool } from "./features.ts";
import type { MethodCall, MethodSpec } from "./scope.ts";
import type { TokenSealer } from "./sealed-token.ts";

const DEFAULT_PAGE_SIZE = 100;
// Wire fields per the MCP specification's schema (both revisions; `execution` is 2025-11-25's tasks hint).
const DESCRIPTIVE = ["name", "title", "description", "icons", "_meta"] as const;
const TOOL_FIELDS = [...DESCRIPTIVE, "inputSchema", "outputSchema", "annotations", "execution"];
const RESOURCE_FIELDS = ["uri", ...DESCRIPTIVE, "mimeType", "annotations", "size"];
const TEMPLATE_FIELDS = ["uriTemplate", ...DESCRIPTIVE, "mimeType", "annotations"];
const PROMPT_FIELDS = [...DESCRIPTIVE, "arguments"];

export const sharedMethods: Record<string, MethodSpec> = {
  "tools/list": list("tools", ({ server, ctx }) =>
    [...server.tools.values()]
      .filter((tool) => !tool.unlisted && showsTool(server, tool.name, ctx.auth))
      .map(toolListing),
  ),
  "tools/call": { mrtr: true, run: (call) => callTool(call) },
  "resources/list": list("resources", ({ server, ctx }) =>
    [...server.resources.values()]
      .filter((resource) => server.options.toolGate?.showsResource(resource.scopes, ctx.auth) ?? true)
      .map((resource) => pick(resource, RESOURCE_FIELDS)),
  ),
  "resources/templates/list": list("resourceTemplates", ({ server, ctx }) =>
    [...server.templates.values()]
      .filter(({ definition }) => server.options.toolGate?.showsResource(definition.scopes, ctx.auth) ?? true)
      .map((entry) => pick(entry.definition, TEMPLATE_FIELDS)),
  ),
  "resources/read": { mrtr: true, run: readResource },
  "prompts/list": list("prompts", ({ server }) =>
    [...server.prompts.values()].map((prompt) => pick(prompt, PROMPT_FIELDS)),
  ),
  "prompts/get": { mrtr: true, run: getPrompt },
  "completion/complete": { run: complete },
};

/** A tool as tools/list gives it: its wire fields only. */
export function toolListing(tool: object): Record<string, unknown> {
  return pick(tool, TOOL_FIELDS);
}

/** A list method: one page of what `items` lists, as `{ [key]: [...], nextCursor? }`. */
function list(key: string, items: (call: MethodCall) => unknown[]): MethodSpec {
  return {
    run: async (call) => {
      const pageSize = call.server.options.pageSize ?? DEFAULT_PAGE_SIZE;
      const page = paginate(items(call), call.params.cursor, pageSize, call.server.sealer, key);
      const result: Result = { [key]: page.items };
      if (page.nextCursor) result.nextCursor = page.nextCursor;
      return result;
    },
  };
}

/** Copies only the wire fields of a definition: handlers, validators and any extras the caller attached stay home. */
function pick(definition: object, fields: readonly string[]): Record<string, unknown> {
  const source = definition as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]),
  );
}

/** Cursors are sealed offsets: a client cannot forge one, and a stale or garbage cursor is a clean -32602. */
function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number, sealer: TokenSealer, kind: string) {
  let offset = 0;
  if (cursor !== undefined) {
    const payload = typeof cursor === "string" ? sealer.open(cursor) : undefined;
    offset = isObject(payload) && payload.kind === kind && typeof payload.offset === "number" ? payload.offset : -1;
    if (!Number.isSafeInteger(offset) || offset < 0) throw invalidParams("Invalid cursor");
  }
  const page: { items: T[]; nextCursor?: string } = { items: items.slice(offset, offset + pageSize) };
  if (offset + pageSize < items.length) page.nextCursor = sealer.seal({ kind, offset: offset + pageSize });
  return page;
}
