/**
 * src/manifest.ts and src/manifest.json: the spec's MCP surface as plain data (what tools/list,
 * resources/list... return, plus http bindings and prompt message templates). Data, not code.
 */

import { sha256 } from "../hash.ts";
import type { HttpBindingNode } from "../ir.ts";
import type { Model } from "../normalize.ts";
import { header } from "./ts.ts";
import { dataProperty } from "./ts-data-literal.ts";

type Json = { [key: string]: unknown };

const LARGE_MANIFEST = 2_000_000;

/** Copies the listed fields that are set, in that order, so output does not depend on input key order. */
function pick(from: object, fields: string[]): Json {
  const out: Json = {};
  for (const field of fields) {
    const value = (from as Json)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** An http binding as data; the OpenAPI mapping's details only when present, defaults left out. */
const http = (binding: HttpBindingNode | undefined) => {
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
      ...(binding.baseUrl ? { baseUrl: binding.baseUrl } : {}),
    },
  };
};

/** Built once per model: render and the surface summary both ask for the same data. */
function perModel(build: (model: Model) => Json): (model: Model) => Json {
  const built = new WeakMap<Model, Json>();
  return (model) => {
    let data = built.get(model);
    if (!data) {
      data = build(model);
      built.set(model, data);
    }
    return data;
  };
}

export const manifestData = perModel((model) => {
  const { server } = model;
  return {
    server: pick(server, ["name", "version", "title", "description", "instructions", "websiteUrl", "icons"]),
    ...(server.upstream
      ? {
          upstream: pick(
            {
              ...server.upstream,
              auth: server.upstream.auth && pick(server.upstream.auth, ["type", "in", "name", "env"]),
            },
            ["baseUrl", "timeoutMs", "auth", "baseUrlTemplate", "variables", "securitySchemes", "retry"],
          ),
        }
      : {}),
    tools: model.tools.map(({ node }) => ({
      ...pick(node, ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons"]),
      ...http(node.http),
    })),
    resources: model.resources.map(({ node }) => ({
      ...pick(node, ["uri", "name", "title", "description", "mimeType", "size", "icons"]),
      ...(node.content?.type === "text" ? { text: node.content.text } : {}),
      ...(node.content?.type === "blob" ? { blob: node.content.blob } : {}),
      ...http(node.http),
    })),
    resourceTemplates: model.templates.map(({ node }) => ({
      ...pick(node, ["uriTemplate", "name", "title", "description", "mimeType", "icons", "completions"]),
      ...http(node.http),
    })),
    prompts: model.prompts.map(({ node }) => ({
      ...pick(node, ["name", "title", "description", "icons"]),
      arguments: node.arguments.map((a) => pick(a, ["name", "title", "description", "required"])),
      ...completionsOf(node.arguments),
      ...(node.messages ? { messages: node.messages.map((m) => ({ role: m.role, content: m.content })) } : {}),
    })),
  };
});

/** Prompt completions keyed by argument, kept apart from `arguments` so prompts/list shows plain arguments. */
function completionsOf(args: Array<{ name: string; completions?: string[] }>): Json {
  const entries = args.filter((a) => a.completions).map((a) => [a.name, a.completions]);
  return entries.length ? { completions: Object.fromEntries(entries) } : {};
}

/** Which capabilities the catalog brings, stated in manifest.ts so the handshake needs no catalog. */
function offersOf(data: Json): Json {
  const has = (field: string) => (data[field] as unknown[]).length > 0;
  const completable = [...(data.prompts as Json[]), ...(data.resourceTemplates as Json[])];
  return {
    tools: has("tools"),
    resources: has("resources") || has("resourceTemplates"),
    prompts: has("prompts"),
    completions: completable.some((entry) => entry.completions !== undefined),
  };
}

/**
 * The catalog as manifest.json stores it. Tool schemas are self-contained (MCP wants each one whole in
 * tools/list), so an OpenAPI API repeats each shared definition in every tool that reaches it: GitHub's
 * catalog would be 5 MB. Stored, each `$defs` entry is under `defs` once, by content id, and a tool keeps
 * the names it uses (`inputDefs`, `outputDefs`); the runtime's readCatalog puts them back.
 */
export const catalogData = perModel((model) => {
  const { tools, resources, resourceTemplates, prompts } = manifestData(model);
  const defs: Json = {};
  const stored = (tools as Json[]).map((tool) => {
    const out: Json = { ...tool };
    for (const [field, names] of [
      ["inputSchema", "inputDefs"],
      ["outputSchema", "outputDefs"],
    ] as const) {
      const schema = tool[field] as Json | undefined;
      const shared = schema?.$defs;
      if (!schema || typeof shared !== "object" || shared === null || Array.isArray(shared)) continue;
      const { $defs: _defs, ...root } = schema;
      out[field] = root;
      out[names] = Object.fromEntries(
        Object.entries(shared).map(([name, def]) => {
          const id = contentId(def);
          defs[id] ??= def;
          return [name, id];
        }),
      );
    }
    return out;
  });
  return { defs, tools: stored, resources, resourceTemplates, prompts };
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
 * src/manifest.ts (server identity, upstream, capabilities) and src/manifest.json (the catalog: tools,
 * resources, templates, prompts), which the server reads on first need instead of at start-up.
 */
export function renderManifest(model: Model): { ts: string; json: string } {
  const data = manifestData(model);
  const { server, upstream } = data;
  const catalog = { "//": header(model.specRef).slice(3).trim(), ...catalogData(model) };
  // Indented, so a spec change reads as a small diff; a large API's catalog (megabytes) stays compact.
  const pretty = JSON.stringify(catalog, null, 2);
  const json = `${pretty.length > LARGE_MANIFEST ? JSON.stringify(catalog) : pretty}\n`;
  const fields = [
    dataProperty("server", server, "  "),
    ...(upstream ? [dataProperty("upstream", upstream, "  ")] : []),
    dataProperty("offers", offersOf(data), "  "),
    "  // The catalog (manifest.json) is read when a client first needs it, not at start-up.",
    '  catalog: () => readCatalog(new URL("./manifest.json", import.meta.url)),',
  ];
  const ts = [
    header(model.specRef),
    'import { type Manifest, readCatalog } from "../runtime/spec-server.ts";',
    "",
    `export const manifest: Manifest = {\n${fields.join("\n")}\n};`,
    "",
  ].join("\n");
  return { ts, json };
}
