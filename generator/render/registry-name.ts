/** The server's name in the MCP Registry, shared by server.json, package.json's mcpName and the MCPB author. */
import type { Model } from "../normalize/normalize.ts";

/** Stands for the owner until the spec names the server: valid for the schema, refused by the registry's
 * namespace check (no one can prove they own io.github.OWNER), so it is never published by mistake. */
export const PLACEHOLDER_OWNER = "io.github.OWNER";

/** The spec's registry name (server.registryName, OpenAPI info.x-mcp-registry-name), else the placeholder. */
export function registryName(model: Model): string {
  return model.server.registryName ?? `${PLACEHOLDER_OWNER}/${model.packageName}`;
}

/**
 * package.json's prepublishOnly while the name is the placeholder: `npm publish` stops with the advice. The
 * message travels as an argument in double quotes; it holds the package name (npm's characters) and nothing else
 * from the spec, so no shell (sh or cmd) reads anything in it.
 */
export function placeholderGuard(model: Model): string {
  const field =
    model.server.origin === "openapi"
      ? "info.x-mcp-registry-name in the OpenAPI document"
      : "server.registryName in the spec";
  const message =
    `npm publish stopped: server.json names this server ${registryName(model)}, a placeholder the MCP Registry ` +
    `refuses (REGISTRY_NAME_PLACEHOLDER). Set ${field} to a name you own, such as ` +
    `io.github.YOUR-GITHUB-USER/${model.packageName}, and run mcpgen generate again.` +
    (model.server.origin === "spec" ? " Not for the registry? Mark it private: package: { private: true }." : "");
  return `node -e "console.error(process.argv[1]); process.exit(1)" "${message}"`;
}
