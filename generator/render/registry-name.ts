/** The server's name in the MCP Registry, shared by server.json, package.json's mcpName and the MCPB author. */
import type { Model } from "../normalize/normalize.ts";

/** Stands for the owner until the spec names the server: valid for the schema, refused by the registry's
 * namespace check (no one can prove they own io.github.OWNER), so it is never published by mistake. */
export const PLACEHOLDER_OWNER = "io.github.OWNER";

/** The spec's registry name (server.registryName, OpenAPI info.x-mcp-registry-name), else the placeholder. */
export function registryName(model: Model): string {
  return model.server.registryName ?? `${PLACEHOLDER_OWNER}/${model.packageName}`;
}
