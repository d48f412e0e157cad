/**
 * server.json for the MCP Registry (schema 2025-12-11, vendored in generator/schema/vendor/): the npm
 * package, its stdio transport and every environment variable the server reads (credentials marked
 * secret). Its version is package.json's, from the same function, so the two cannot drift: a hand edit
 * of either is a changed file to `--check`. The registry name (also package.json's `mcpName`, which the
 * registry checks to verify npm ownership) comes from the spec's `package.registryName`.
 */
import type { UpstreamNode } from "../ir.ts";
import type { Model } from "../normalize/normalize.ts";
import { CLIENT_TOOL_LIMIT } from "../rules/tool-count.ts";
import { packageVersion, registryName } from "./package-files.ts";

export const REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The registry's limit on `description` (and `title`). */
export const REGISTRY_TEXT_LIMIT = 100;

/** At most `limit` characters, cut at a word with an ellipsis; one line (the registry shows it as such). */
function cutTo(text: string, limit = REGISTRY_TEXT_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const word = cut.lastIndexOf(" ");
  return `${(word > limit / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

type EnvironmentVariable = {
  name: string;
  description: string;
  isRequired: boolean;
  isSecret: boolean;
  default?: string;
  choices?: string[];
};

function environmentVariables(upstream: UpstreamNode | undefined): EnvironmentVariable[] {
  const vars: EnvironmentVariable[] = [];
  for (const scheme of upstream?.securitySchemes ?? []) {
    const names: Array<[string, string]> =
      scheme.type === "oauth2"
        ? [
            [scheme.clientIdEnv, `OAuth2 client id (${scheme.id})`],
            [scheme.clientSecretEnv, `OAuth2 client secret (${scheme.id})`],
          ]
        : [
            [
              scheme.env,
              `${scheme.type === "apiKey" ? "API key" : scheme.type === "basic" ? "user:password" : "bearer token"} (${scheme.id})`,
            ],
          ];
    for (const [name, description] of names)
      vars.push({ name, description: cutTo(description, 200), isRequired: false, isSecret: true });
  }
  for (const [name, variable] of Object.entries(upstream?.variables ?? {})) {
    vars.push({
      name: variable.env,
      description: cutTo(`API server URL variable ${name}`, 200),
      isRequired: false,
      isSecret: false,
      default: variable.default,
      ...(variable.enum ? { choices: variable.enum } : {}),
    });
  }
  return vars.filter((v, i) => vars.findIndex((w) => w.name === v.name) === i);
}

export function renderRegistryServerJson(model: Model): string {
  const { server } = model;
  const version = packageVersion(model);
  const env = environmentVariables(server.upstream);
  const doc = {
    $schema: REGISTRY_SCHEMA,
    name: registryName(model),
    ...(server.title ? { title: cutTo(server.title) } : {}),
    description: cutTo(server.description ?? "") || `MCP server ${cutTo(server.name, 80)}`,
    version,
    ...(server.websiteUrl && /^https:\/\/\S+$/.test(server.websiteUrl) ? { websiteUrl: server.websiteUrl } : {}),
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: model.packageName,
        version,
        transport: { type: "stdio" },
        // Over the 128 tools clients accept, the server is listed to start in dynamic mode.
        ...(model.tools.length > CLIENT_TOOL_LIMIT
          ? { packageArguments: [{ type: "named", name: "--mode", value: "dynamic" }] }
          : {}),
        ...(env.length ? { environmentVariables: env } : {}),
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
