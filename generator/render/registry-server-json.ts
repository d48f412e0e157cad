/**
 * server.json for the official MCP Registry (schema 2025-12-11, vendored in render/vendor/ with its
 * source): the npm package run over stdio, every environment variable the server reads (credentials
 * marked secret), and the package.json's version, so `mcp-publisher publish` lists what npm serves.
 */
import type { Model } from "../normalize/normalize.ts";
import { packageVersion } from "./package-files.ts";
import { registryName } from "./registry-name.ts";
import { serverEnvVars } from "./server-env.ts";

export const SERVER_JSON_FILE = "server.json";
export const REGISTRY_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The registry's limit on `description` (and `title`), in characters. */
export const REGISTRY_TEXT_LIMIT = 100;

/** Text cut to `limit` characters (code points, as JSON Schema counts them) at a word, with an ellipsis. */
export function cutText(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  if (chars.length <= limit) return flat;
  const head = chars.slice(0, limit - 1).join("");
  const word = head.replace(/\s+\S*$/, "");
  return `${word.length >= limit / 2 ? word : head}…`;
}

export function renderServerJson(model: Model): string {
  const { server } = model;
  const version = packageVersion(model);
  const environmentVariables = serverEnvVars(model).map((v) => ({
    name: v.name,
    description: v.description,
    isRequired: v.required,
    isSecret: v.secret,
    format: v.format,
    ...(v.default !== undefined ? { default: v.default } : {}),
    ...(v.choices ? { choices: v.choices } : {}),
  }));
  const doc = {
    $schema: REGISTRY_SCHEMA_URL,
    name: registryName(model),
    ...(server.title?.trim() ? { title: cutText(server.title, REGISTRY_TEXT_LIMIT) } : {}),
    description: cutText(server.description || `MCP server ${server.name}`, REGISTRY_TEXT_LIMIT) || server.name,
    version,
    ...(server.websiteUrl && /^https?:\/\/\S+$/.test(server.websiteUrl) ? { websiteUrl: server.websiteUrl } : {}),
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: model.packageName,
        version,
        transport: { type: "stdio" },
        environmentVariables,
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
