/**
 * src/manifest.ts: the spec's MCP surface as plain data (what tools/list, resources/list... return,
 * plus http bindings and prompt message templates). Data, not code: everything is one JSON literal.
 */
import type { Model } from "../normalize.ts";
import { header, lit } from "./ts.ts";

type Json = { [key: string]: unknown };

/** Copies the listed fields that are set, in that order, so output does not depend on input key order. */
function pick(from: object, fields: string[]): Json {
  const out: Json = {};
  for (const field of fields) {
    const value = (from as Json)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

const http = (binding: { method: string; path: string } | undefined) =>
  binding ? { http: { method: binding.method.toUpperCase(), path: binding.path } } : {};

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
            ["baseUrl", "timeoutMs", "auth"],
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
      ...pick(node, ["uriTemplate", "name", "title", "description", "mimeType", "icons"]),
      ...http(node.http),
    })),
    prompts: model.prompts.map(({ node }) => ({
      ...pick(node, ["name", "title", "description", "icons"]),
      arguments: node.arguments.map((a) => pick(a, ["name", "title", "description", "required"])),
      ...(node.messages ? { messages: node.messages.map((m) => ({ role: m.role, content: m.content })) } : {}),
    })),
  };
}

export function renderManifest(model: Model): string {
  // Indented, so a spec change reads as a small diff; lit() keeps it one safe literal.
  return [
    header(model.specRef),
    'import type { Manifest } from "../runtime/spec-server.ts";',
    "",
    `export const manifest: Manifest = ${lit(manifestData(model), 2)};`,
    "",
  ].join("\n");
}
