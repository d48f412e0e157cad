/**
 * The MCPB bundle's manifest (MCPB manifest_version 0.3, github.com/modelcontextprotocol/mcpb MANIFEST.md),
 * for one-click install in Claude Desktop. It sits at the package root, where MCPB wants it (docs/publishing.md),
 * so the official `mcpb pack` works on the package too; src/manifest.json, the MCP catalog, is another
 * file. `npm run bundle` (runtime/package/mcpb-bundle.mjs, written as scripts/mcpb-bundle.mjs) packs it.
 *
 * Each credential and setting of serverEnvVars becomes a `user_config` entry the installer asks for,
 * passed to the server as its environment variable.
 */
import { readFileSync } from "node:fs";
import type { Model } from "../normalize/normalize.ts";
import { DIST_ENTRY, packageVersion } from "./package-files.ts";
import { registryName } from "./registry-name.ts";
import { serverEnvVars } from "./server-env.ts";

export const MCPB_MANIFEST_FILE = "manifest.json";
export const MCPB_BUNDLE_SCRIPT_FILE = "scripts/mcpb-bundle.mjs";
export const MCPB_MANIFEST_VERSION = "0.3";

/** The server's entry point inside the bundle, relative to its root: the package's bin (plain node, no tsx). */
export const BUNDLE_ENTRY_POINT = DIST_ENTRY;

/** A user_config key from an environment variable name: MCPB substitutes `${user_config.<key>}`. */
const configKey = (env: string) => env.toLowerCase().replace(/[^a-z0-9_]/g, "_");

/** Who publishes the bundle, from the registry name's namespace (`io.github.alice` → alice). */
function authorOf(model: Model): string {
  const namespace = registryName(model).split("/")[0];
  const github = /^io\.github\.(.+)$/.exec(namespace);
  return github ? github[1] : namespace.split(".").reverse().join(".");
}

export function renderMcpbManifest(model: Model): string {
  const { server } = model;
  const userConfig: Record<string, object> = {};
  const env: Record<string, string> = {};
  for (const v of serverEnvVars(model)) {
    if (!v.setting) continue;
    const key = configKey(v.name);
    // Every setting has a default, so an installer that leaves it alone still passes a value the server
    // accepts (an empty string reads as unset); a secret has none: the user types it.
    const fallback =
      v.format === "number" ? Number(v.default) : v.format === "boolean" ? v.default === "true" : v.default;
    userConfig[key] = {
      type: v.format,
      title: v.setting.title,
      description: v.choices ? `${v.description} One of: ${v.choices.join(", ")}.` : v.description,
      required: v.required,
      ...(v.secret ? { sensitive: true } : { default: fallback ?? "" }),
    };
    env[v.name] = `\${user_config.${key}}`;
  }
  const manifest = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: model.packageName,
    display_name: server.title || server.name,
    version: packageVersion(model),
    description: (server.description || `MCP server ${server.name}`).replace(/\s+/g, " ").trim(),
    author: { name: authorOf(model) },
    server: {
      type: "node",
      entry_point: BUNDLE_ENTRY_POINT,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${BUNDLE_ENTRY_POINT}`],
        ...(Object.keys(env).length > 0 ? { env } : {}),
      },
    },
    ...(Object.keys(userConfig).length > 0 ? { user_config: userConfig } : {}),
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: ">=20" } },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** scripts/mcpb-bundle.mjs: runtime/package/mcpb-bundle.mjs byte for byte (plain JavaScript, the same in every package). */
export function mcpbBundleScript(): string {
  return readFileSync(new URL("../../runtime/package/mcpb-bundle.mjs", import.meta.url), "utf8");
}
