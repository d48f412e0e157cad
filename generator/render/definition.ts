/**
 * src/definition.ts and src/catalog.json: the spec's MCP surface as plain data (what tools/list,
 * resources/list... return, plus http bindings and prompt message templates). Data, not code.
 */

import { LEGACY_URI_KEY, viewUri } from "../../runtime/features/apps/view-config.ts";
import type {
  Catalog,
  CatalogPrompt,
  CatalogTool,
  CatalogToolset,
  HttpBinding,
  PromptMessageTemplate,
  SecurityScheme,
  ServerDefinition,
  StoredCatalog,
  TaskBinding,
} from "../../runtime/package/catalog-types.ts";
import type { ContentBlock, Role, Tool } from "../../runtime/protocol/types.ts";
import type { DeferredOffers } from "../../runtime/server/server.ts";
import { sha256 } from "../hash.ts";
import type { HttpBindingNode, JsonSchema, PromptMessageNode, SecuritySchemeNode, TaskNode } from "../ir.ts";
import type { Model, ToolModel } from "../normalize/normalize.ts";
import { DEFAULT_TOOLSET } from "../normalize/toolset-names.ts";
import { placeScopes } from "../normalize/upstream-scopes.ts";
import { contentProblem } from "../rules/prompts.ts";
import { header } from "./ts.ts";
import { dataProperty } from "./ts-data-literal.ts";

const LARGE_CATALOG = 2_000_000;

/** What a package's definition holds: src/definition.ts's value (its catalog loader aside) and the catalog. */
export type DefinitionData = { definition: Omit<ServerDefinition, "catalog">; catalog: Catalog };

/** Copies the listed fields that are set, in that order, so output does not depend on input key order. */
function pick<T extends object, K extends keyof T>(from: T, fields: readonly K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const field of fields) if (from[field] !== undefined) out[field] = from[field];
  // Every field is copied unless it is undefined, and an undefined field is an optional one left out.
  return out as Pick<T, K>;
}

/** An http binding as data; the OpenAPI mapping's details only when present, defaults left out. */
function http(binding: HttpBindingNode | undefined, upstreamScopes?: string[]): { http?: HttpBinding } {
  if (!binding) return {};
  const parameters = binding.parameters?.map((p) => ({
    ...pick(p, ["name", "in"]),
    ...(p.arg.length === 1 && p.arg[0] === p.name ? {} : { arg: p.arg }),
    ...pick(p, ["style", "explode", "allowReserved", "json"]),
  }));
  return {
    http: {
      method: binding.method.toUpperCase(),
      path: binding.path,
      ...(parameters ? { parameters } : {}),
      ...(binding.body ? { body: pick(binding.body, ["contentType", "arg", "properties"]) } : {}),
      ...(binding.security ? { security: binding.security } : {}),
      ...(upstreamScopes ? { scopes: [...new Set(upstreamScopes)] } : {}),
      ...(binding.baseUrl ? { baseUrl: binding.baseUrl } : {}),
      ...(binding.fields ? { fields: true as const } : {}),
      ...(binding.task ? { task: task(binding.task) } : {}),
    },
  };
}

/** A task binding in TaskBinding's own key order (whatever order the spec wrote), params sorted by name. */
function task(node: TaskNode): TaskBinding {
  const params = (map: Record<string, string> | undefined) =>
    map ? { params: Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) } : {};
  const { poll, status, result, cancel } = node;
  return {
    style: node.style,
    poll: { ...pick(poll, ["headers", "link", "path"]), ...params(poll.params) },
    ...(status ? { status: pick(status, ["pointer", "completed", "failed", "cancelled"]) } : {}),
    ...(result ? { result: pick(result, ["pointer", "link", "header"]) } : {}),
    ...pick(node, ["error"]),
    ...(cancel ? { cancel: { ...pick(cancel, ["method", "path"]), ...params(cancel.params) } } : {}),
    ...pick(node, ["pollIntervalMs"]),
  };
}

/** A scheme as the runtime reads it: the source location stays in the generator. */
type Placer = ReturnType<typeof placeScopes>;

function scheme({ loc: _loc, signIn: _signIn, ...rest }: SecuritySchemeNode): SecurityScheme {
  return rest;
}

// The rules have refused every spec these do not hold for (SCHEMA_NOT_OBJECT, PROMPT_ROLE_INVALID,
// PROMPT_CONTENT_INVALID); the checks below tell the types so, and stop a render that skipped them.
const isObjectSchema = (schema: JsonSchema): schema is Tool["inputSchema"] => schema.type === "object";
const isRole = (role: string): role is Role => role === "user" || role === "assistant";
const isContentBlock = (content: PromptMessageNode["content"]): content is ContentBlock =>
  contentProblem(content) === undefined;

/** A tool as tools/list serves it: schemas compacted, description without repeats (normalize/listed-tool.ts). */
function tool({ node, listed, view }: ToolModel, server: string, place: Placer): CatalogTool {
  const placed = place(node);
  if (!isObjectSchema(listed.inputSchema))
    throw new Error(`inputSchema of tool '${node.name}' is not an object schema`);
  return {
    ...pick(node, ["name", "title"]),
    ...pick(listed, ["description"]),
    inputSchema: listed.inputSchema,
    ...pick(listed, ["outputSchema", "annotations"]),
    ...pick(node, ["icons"]),
    // The view's URI in both keys the MCP Apps spec names; the apps feature lists them to clients that take it.
    ...(view
      ? { _meta: { ui: { resourceUri: viewUri(server, node.name) }, [LEGACY_URI_KEY]: viewUri(server, node.name) } }
      : {}),
    // 2025-11-25 clients augment only a tool that says it takes a task; the feature adds it to job tools.
    ...(node.task ? { execution: { taskSupport: "optional" as const } } : {}),
    ...http(node.http, placed.upstreamScopes),
    // Absent means `default`: a spec without toolsets keeps the catalog it had.
    ...(node.toolset && node.toolset !== DEFAULT_TOOLSET ? { toolset: node.toolset } : {}),
    ...scopes(placed.scopes),
    ...(view ? { view } : {}),
  };
}

/** OAuth scopes as the catalog states them: each once; none means no entry. */
function scopes(list: string[] | undefined): { scopes?: string[] } {
  return list && list.length > 0 ? { scopes: [...new Set(list)] } : {};
}

/** Every toolset a tool is in, sorted, with its description; absent when every tool is in `default`. */
function toolsetsOf(model: Model): CatalogToolset[] | undefined {
  const names = [...new Set(model.tools.map(({ node }) => node.toolset ?? DEFAULT_TOOLSET))].sort();
  if (names.length === 0 || (names.length === 1 && names[0] === DEFAULT_TOOLSET)) return undefined;
  const descriptions = model.server.toolsetDescriptions ?? {};
  return names.map((name) =>
    Object.hasOwn(descriptions, name) ? { name, description: descriptions[name] } : { name },
  );
}

function message(m: PromptMessageNode): PromptMessageTemplate {
  const { role, content } = m;
  if (!isRole(role) || !isContentBlock(content)) throw new Error(`prompt message at ${m.loc.pointer} is not valid`);
  return { role, content };
}

/** Built once per model: render and the surface summary both ask for the same data; `forget` lets it go. */
function perModel<T>(build: (model: Model) => T): ((model: Model) => T) & { forget(model: Model): void } {
  const built = new WeakMap<Model, T>();
  const get = (model: Model) => {
    let data = built.get(model);
    if (!data) {
      data = build(model);
      built.set(model, data);
    }
    return data;
  };
  return Object.assign(get, { forget: (model: Model) => built.delete(model) });
}

/**
 * Drops the model's catalog objects (Microsoft Graph's: 11,000 tools, twice: as served and as stored)
 * once their last readers are done: catalog.json, the search index, the token counts and the surface
 * summary. They would otherwise live as long as the model, through the types' compile (issue 32).
 */
export function forgetCatalog(model: Model): void {
  definitionData.forget(model);
  catalogData.forget(model);
}

/**
 * Drops the catalog objects as served (definitionData) once the search index, their last reader before
 * the token counts, is built: the counts read the catalog as stored alone (catalogData, made before).
 */
export function forgetServedCatalog(model: Model): void {
  definitionData.forget(model);
}

export const definitionData = perModel((model): DefinitionData => {
  const { server } = model;
  const upstream = server.upstream && {
    ...pick(server.upstream, ["baseUrl", "timeoutMs", "baseUrlTemplate", "variables", "requestIdHeader"]),
    ...(server.upstream.securitySchemes ? { securitySchemes: server.upstream.securitySchemes.map(scheme) } : {}),
    ...pick(server.upstream, ["retry"]),
    ...(server.upstream.sharedParameters
      ? { sharedParameters: server.upstream.sharedParameters.map((p) => pick(p, ["name", "in", "env", "secret"])) }
      : {}),
  };
  const toolsets = toolsetsOf(model);
  const place = placeScopes(
    server,
    model.features.some((feature) => feature.name === "upstream-oauth"),
  );
  // Former names -> current ones (the rules refuse a former name still in use, or given twice).
  const renames = model.tools.flatMap(({ node }) => (node.renamedFrom ? [[node.renamedFrom, node.name]] : []));
  const catalog: Catalog = {
    tools: model.tools.map((entry) => tool(entry, server.name, place)),
    ...(toolsets ? { toolsets } : {}),
    resources: model.resources.map(({ node }) => ({
      ...pick(node, ["uri", "name", "title", "description", "mimeType", "size", "icons"]),
      ...(node.content?.type === "text" ? { text: node.content.text } : {}),
      ...(node.content?.type === "blob" ? { blob: node.content.blob } : {}),
      ...http(node.http, place(node).upstreamScopes),
      ...scopes(place(node).scopes),
    })),
    resourceTemplates: model.templates.map(({ node }) => ({
      ...pick(node, ["uriTemplate", "name", "title", "description", "mimeType", "icons", "completions"]),
      ...http(node.http, place(node).upstreamScopes),
      ...scopes(place(node).scopes),
    })),
    prompts: model.prompts.map(
      ({ node }): CatalogPrompt => ({
        ...pick(node, ["name", "title", "description", "icons"]),
        arguments: node.arguments.map((a) => pick(a, ["name", "title", "description", "required"])),
        ...completionsOf(node.arguments),
        ...(node.messages ? { messages: node.messages.map(message) } : {}),
      }),
    ),
  };
  return {
    definition: {
      server: pick(server, ["name", "version", "title", "description", "instructions", "websiteUrl", "icons"]),
      ...(upstream ? { upstream } : {}),
      offers: offersOf(catalog),
      ...(toolsets ? { toolsetNames: toolsets.map((t) => t.name) } : {}),
      ...(renames.length > 0 ? { renamed: Object.fromEntries(renames) } : {}),
    },
    catalog,
  };
});

/** Prompt completions keyed by argument, kept apart from `arguments` so prompts/list shows plain arguments. */
function completionsOf(args: Array<{ name: string; completions?: string[] }>): Pick<CatalogPrompt, "completions"> {
  const entries = args.flatMap((a) => (a.completions ? [[a.name, a.completions] as const] : []));
  return entries.length ? { completions: Object.fromEntries(entries) } : {};
}

/** Which capabilities the catalog brings, stated in definition.ts so the handshake needs no catalog. */
function offersOf(catalog: Catalog): DeferredOffers {
  const completable = [...catalog.prompts, ...catalog.resourceTemplates];
  return {
    tools: catalog.tools.length > 0,
    resources: catalog.resources.length > 0 || catalog.resourceTemplates.length > 0,
    prompts: catalog.prompts.length > 0,
    completions: completable.some((entry) => entry.completions !== undefined),
  };
}

/**
 * The catalog as src/catalog.json stores it. Tool schemas are self-contained (MCP wants each one whole in
 * tools/list), so an OpenAPI API repeats each shared definition in every tool that reaches it: GitHub's
 * catalog would be 5 MB. Stored, each `$defs` entry is under `defs` once, by content id, and a tool keeps
 * the names it uses (`inputDefs`, `outputDefs`); the runtime's readCatalog puts them back.
 */
export const catalogData = perModel((model): StoredCatalog => {
  const { tools, toolsets, resources, resourceTemplates, prompts } = definitionData(model).catalog;
  const defs: Record<string, unknown> = {};
  /** The schema without its `$defs`, and the content id of each definition by name. */
  const split = <S extends JsonSchema>(
    schema: S | undefined,
  ): { root: S; names: Record<string, string> } | undefined => {
    const shared = schema?.$defs;
    if (!schema || typeof shared !== "object" || shared === null || Array.isArray(shared)) return undefined;
    const root = { ...schema };
    delete root.$defs;
    const names = Object.fromEntries(
      Object.entries(shared).map(([name, def]) => {
        const id = contentId(def);
        defs[id] ??= def;
        return [name, id];
      }),
    );
    return { root, names };
  };
  const stored = tools.map((tool) => {
    const out: StoredCatalog["tools"][number] = { ...tool };
    const input = split(tool.inputSchema);
    if (input) {
      out.inputSchema = input.root;
      out.inputDefs = input.names;
    }
    const output = split(tool.outputSchema);
    if (output) {
      out.outputSchema = output.root;
      out.outputDefs = output.names;
    }
    return out;
  });
  return { defs, tools: stored, ...(toolsets ? { toolsets } : {}), resources, resourceTemplates, prompts };
});

const ids = new WeakMap<object, string>();

/** A definition's id: its content's hash (definitions are shared objects, so each is hashed once). */
function contentId(def: unknown): string {
  const known = typeof def === "object" && def !== null ? ids.get(def) : undefined;
  if (known) return known;
  const id = `d${sha256(JSON.stringify(def)).slice(0, 16)}`;
  if (typeof def === "object" && def !== null) ids.set(def, id);
  return id;
}

/**
 * src/definition.ts (server identity, upstream, capabilities) and src/catalog.json (the catalog: tools,
 * resources, templates, prompts), which the server reads on first need instead of at start-up.
 */
export function renderDefinition(model: Model): { ts: string; json: string } {
  const { server, upstream, offers, toolsetNames, renamed } = definitionData(model).definition;
  const catalog: StoredCatalog = { "//": header(model.specRef).slice(3).trim(), ...catalogData(model) };
  // Indented, so a spec change reads as a small diff; a large API's catalog (megabytes) stays compact.
  // The compact text first: when it is over the line, the indented one (longer still) is never made
  // (Microsoft Graph's would be 100+ MB of garbage, issue 32).
  const compact = JSON.stringify(catalog);
  const pretty = compact.length > LARGE_CATALOG ? undefined : JSON.stringify(catalog, null, 2);
  const json = `${pretty === undefined || pretty.length > LARGE_CATALOG ? compact : pretty}\n`;
  const fields = [
    dataProperty("server", server, "  "),
    ...(upstream ? [dataProperty("upstream", upstream, "  "), "  callUpstream,"] : []),
    dataProperty("offers", offers, "  "),
    // The names alone, so --toolsets is checked at start-up without reading the catalog.
    ...(toolsetNames ? [dataProperty("toolsetNames", toolsetNames, "  ")] : []),
    // Tools' former names, so a call of one is told the current name; not in tools/list.
    ...(renamed ? [dataProperty("renamed", renamed, "  ")] : []),
    "  // The catalog (catalog.json) is read when a client first needs it, not at start-up.",
    '  catalog: () => readCatalog(new URL("./catalog.json", import.meta.url)),',
  ];
  const ts = [
    header(model.specRef),
    'import { readCatalog, type ServerDefinition } from "../runtime/package/spec-server.ts";',
    // Only with an upstream: a package without one carries none of the upstream code.
    ...(upstream ? ['import { callUpstream } from "../runtime/upstream/forward.ts";'] : []),
    "",
    `export const definition: ServerDefinition = {\n${fields.join("\n")}\n};`,
    "",
  ].join("\n");
  return { ts, json };
}
