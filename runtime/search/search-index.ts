// The tool-search index: one document per tool, ranked with MiniSearch (BM25+). `mcpgen generate` builds it
// and writes it to a package's src/search-index.json; the runtime loads that file, or builds the same index
// in memory when it is missing. Both sides take the options from here, so they cannot disagree on how text
// becomes terms.
import MiniSearch, { type AsPlainObject, type Options } from "minisearch";
import type { CatalogTool, CatalogToolset } from "../package/catalog-types.ts";
import { schemaWords } from "./schema-words.ts";
import { splitIdentifier, splitWords, termOf, verbsOf } from "./search-text.ts";

/** Bumped whenever the documents or the options change: an index of another format is rebuilt, not read. */
export const SEARCH_INDEX_FORMAT = 2;

/** What is indexed of a tool, one field each. */
export type ToolDocument = {
  id: string;
  /** The tool's name (an operationId), split into words. */
  name: string;
  title: string;
  description: string;
  /** The toolset (OpenAPI: the first tag). */
  toolset: string;
  /** The literal segments of the http binding's path: /repos/{owner}/{repo}/forks gives "repos forks". */
  path: string;
  /** The names of the tool's arguments. */
  params: string;
  /** What the operation does, in verbs: its HTTP method and its path's shape (verbsOf). */
  verbs: string;
  /** The names of the fields its answer holds (two levels), split into words. */
  fields: string;
  /** The enum values its arguments take. */
  values: string;
  /** Its arguments' descriptions. */
  details: string;
  /** What its toolset is about (OpenAPI: the tag's description). */
  about: string;
};

/** How much a match in each field counts: a tool's name and title say what it does, its arguments less so. */
export const FIELD_BOOST: Readonly<Record<Exclude<keyof ToolDocument, "id">, number>> = {
  name: 3,
  title: 3,
  toolset: 1.5,
  path: 1.5,
  verbs: 1,
  description: 1,
  params: 0.5,
  fields: 0.3,
  values: 0.5,
  details: 0.2,
  about: 0.3,
};

const FIELDS = Object.keys(FIELD_BOOST);
/** Fields that hold identifiers, split at camelCase humps too; the others hold prose. */
const IDENTIFIER_FIELDS = new Set(["name", "params", "path", "toolset", "fields", "values"]);

/**
 * Descriptions are Markdown or HTML: link targets, bare URLs and tags would index every word of docs URLs
 * and every `<p>`.
 */
function plainText(markdown: string): string {
  return markdown
    .replace(/<[^<>]*>/g, " ")
    .replace(/\]\([^)\s]*\)/g, "]")
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/`/g, " ");
}

/** A description's sentences (and Markdown lines), trimmed. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/**
 * Sentences that many tools' descriptions repeat word for word (large APIs append the same note on
 * authentication scopes or pagination to hundreds of operations): they say nothing about what a tool
 * does, and would make every tool match "token" or "access". At least 1% of the tools, and at least 5.
 */
export function boilerplateOf(tools: readonly CatalogTool[]): Set<string> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    for (const sentence of new Set(sentences(plainText(tool.description ?? ""))))
      counts.set(sentence, (counts.get(sentence) ?? 0) + 1);
  }
  const threshold = Math.max(5, tools.length / 100);
  return new Set([...counts].filter(([, count]) => count >= threshold).map(([sentence]) => sentence));
}

export function toolDocument(
  tool: CatalogTool,
  boilerplate: ReadonlySet<string> = new Set(),
  toolsetAbout: ReadonlyMap<string, string> = new Map(),
): ToolDocument {
  const description = sentences(plainText(tool.description ?? ""))
    .filter((sentence) => !boilerplate.has(sentence))
    .join(" ");
  const path = tool.http?.path ?? "";
  const properties = tool.inputSchema.properties;
  const input = schemaWords(tool.inputSchema, 3);
  const output = schemaWords(tool.outputSchema, 2);
  return {
    id: tool.name,
    name: tool.name,
    title: tool.title ?? tool.annotations?.title ?? "",
    description,
    toolset: tool.toolset ?? "",
    path: path
      .split("/")
      .filter((segment) => !segment.includes("{"))
      .join(" "),
    params: properties && typeof properties === "object" ? Object.keys(properties).join(" ") : "",
    verbs: verbsOf(tool.http?.method, tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint, path),
    fields: output.names.join(" "),
    values: input.values.join(" "),
    details: input.descriptions.map(plainText).join(" "),
    about: plainText(toolsetAbout.get(tool.toolset ?? "") ?? ""),
  };
}

/** MiniSearch's options, the same for building and loading an index. */
export const SEARCH_INDEX_OPTIONS: Options<ToolDocument> = {
  idField: "id",
  fields: FIELDS,
  storeFields: [],
  tokenize: (text, field) => (field && IDENTIFIER_FIELDS.has(field) ? splitIdentifier(text) : splitWords(text)),
  processTerm: (term) => termOf(term),
  searchOptions: { boost: { ...FIELD_BOOST } },
};

/** The index of `tools`, built in memory. */
export function buildSearchIndex(
  tools: readonly CatalogTool[],
  toolsets: readonly CatalogToolset[] = [],
): MiniSearch<ToolDocument> {
  const index = new MiniSearch<ToolDocument>(SEARCH_INDEX_OPTIONS);
  const boilerplate = boilerplateOf(tools);
  const about = new Map(toolsets.flatMap((set) => (set.description ? [[set.name, set.description] as const] : [])));
  index.addAll(tools.map((tool) => toolDocument(tool, boilerplate, about)));
  return index;
}

/** The file `mcpgen generate` writes (src/search-index.json): the format, then MiniSearch's own JSON. */
export function serializeSearchIndex(index: MiniSearch<ToolDocument>, header?: string): string {
  const body = JSON.stringify(index);
  const head = header === undefined ? "" : `"//":${JSON.stringify(header)},`;
  return `{${head}"format":${SEARCH_INDEX_FORMAT},"index":${body}}\n`;
}

/** The index a file holds, or undefined when it is of another format or not an index at all. */
export function parseSearchIndex(text: string): MiniSearch<ToolDocument> | undefined {
  const file = JSON.parse(text) as { format?: unknown; index?: unknown };
  if (file.format !== SEARCH_INDEX_FORMAT || typeof file.index !== "object" || file.index === null) return undefined;
  return MiniSearch.loadJS(file.index as AsPlainObject, SEARCH_INDEX_OPTIONS);
}
