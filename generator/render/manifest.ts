/**
 * src/manifest.ts: the spec's MCP surface as plain data (what tools/list, resources/list... return,
 * plus http bindings and prompt message templates). Data, not code: everything is one JSON literal.
 */

import type { HttpBindingNode } from "../ir.ts";
import type { Model } from "../normalize.ts";
import { header, lit } from "./ts.ts";

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

export function manifestData(model: Model): Json {
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
}

/** Prompt completions keyed by argument, kept apart from `arguments` so prompts/list shows plain arguments. */
function completionsOf(args: Array<{ name: string; completions?: string[] }>): Json {
  const entries = args.filter((a) => a.completions).map((a) => [a.name, a.completions]);
  return entries.length ? { completions: Object.fromEntries(entries) } : {};
}

export function renderManifest(model: Model): string {
  // Indented, so a spec change reads as a small diff; lit() keeps it one safe literal.
  const data = manifestData(model);
  const literal = lit(data, 2);
  // A huge object literal (all of GitHub's API) makes tsc infer a union "too complex to represent";
  // past a size, the same data goes in as one JSON string, which costs the type checker nothing.
  const value = literal.length > LARGE_MANIFEST ? `JSON.parse(${lit(JSON.stringify(data))}) as Manifest` : literal;
  return [
    header(model.specRef),
    'import type { Manifest } from "../runtime/spec-server.ts";',
    "",
    `export const manifest: Manifest = ${value};`,
    "",
  ].join("\n");
}
