// Code mode's typed API docs: src/code-api.json (written by `mcpgen generate`, shape CodeApiFile) read on
// the first search_docs, and the text search_docs answers with: the matched tools' declarations inside
// `declare const api: { ... }`, then every type they use, transitively, each once, nothing else.
// A missing or unreadable file is an empty API, never a failure: the search still names the tools.
import { readFileSync } from "node:fs";
import type { CodeApiFile } from "./code-api-types.ts";

type Entry = { declaration: string; types: string[] };

const loaded = new Map<string, CodeApiFile>();

/** The file's contents, read once per file; entries not of the expected shape are left out. */
export function loadCodeApi(file: URL): CodeApiFile {
  let api = loaded.get(file.href);
  if (!api) {
    api = parseCodeApi(readOrUndefined(file));
    loaded.set(file.href, api);
  }
  return api;
}

function readOrUndefined(file: URL): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** JSON text as a CodeApiFile: what is not a `{ declaration: string, types: string[] }` entry is dropped. */
export function parseCodeApi(text: string | undefined): CodeApiFile {
  let data: unknown;
  try {
    data = text === undefined ? undefined : JSON.parse(text);
  } catch {
    data = undefined;
  }
  const record = (value: unknown) => (isObject(value) ? value : {});
  const root = record(data);
  return { tools: entries(record(root.tools)), types: entries(record(root.types)) };
}

function entries(value: Record<string, unknown>): Record<string, Entry> {
  // No prototype: a tool or type named `__proto__` or `constructor` is a name like any other.
  const out: Record<string, Entry> = Object.create(null);
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry) || typeof entry.declaration !== "string" || !Array.isArray(entry.types)) continue;
    out[name] = { declaration: entry.declaration, types: entry.types.filter((t) => typeof t === "string") };
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One tool's declaration (doc comment and signature), or undefined for a name the file does not know. */
export function declarationLine(api: CodeApiFile, name: string): string | undefined {
  return Object.hasOwn(api.tools, name) ? api.tools[name].declaration : undefined;
}

/**
 * What search_docs answers for these tools (in this order, unknown names skipped): `declare const api`
 * with their declarations, then the types they reference, transitively, each once, in order of first
 * reference (a type before the types it uses). Empty text when no name is known.
 */
export function declarationsFor(api: CodeApiFile, names: readonly string[]): string {
  const tools = [...new Set(names)].filter((name) => Object.hasOwn(api.tools, name));
  if (tools.length === 0) return "";
  const order: string[] = [];
  const seen = new Set<string>();
  const queue = tools.flatMap((name) => api.tools[name].types);
  // Breadth first: the tools' own argument and result types come first, the types inside them after.
  while (queue.length > 0) {
    const type = queue.shift() as string;
    if (seen.has(type) || !Object.hasOwn(api.types, type)) continue;
    seen.add(type);
    order.push(type);
    queue.push(...api.types[type].types);
  }
  const members = tools.map((name) => indent(api.tools[name].declaration));
  const types = order.map((type) => api.types[type].declaration);
  return [`declare const api: {\n${members.join("\n")}\n};`, ...types].join("\n\n");
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
