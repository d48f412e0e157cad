/**
 * The mcpgen config file: `mcpgen.config.ts` (or `.mjs`, `.json`, `.yaml`) in the directory where
 * `mcpgen generate` runs without arguments. This module is the package's entry point, so a config
 * written in TypeScript is checked as you type:
 *
 *   import { defineConfig } from "mcpgen";
 *   export default defineConfig({ input: "specs/weather.yaml", output: "generated/weather" });
 *
 * It holds types and one identity function only, so loading a config loads nothing else.
 */

/** How an OpenAPI document maps to tools (docs/openapi.md#mapping-rules); an error for a spec-language input. */
export type OpenApiConfig = {
  /** Keep only operations matching one of these selectors: `tag:<glob>`, `op:<glob>`, `path:<glob>`, `method:<METHOD>`. */
  include?: string[];
  /** Drop operations matching any of these selectors. */
  exclude?: string[];
  /** A separate mapping options file (what `--config` takes), relative to the config file. */
  mappingFile?: string;
  /** Only `false`: whether `$ref`s may fetch URLs is decided on the command line (`--allow-remote-refs`), never by a file. */
  allowRemoteRefs?: false;
  /** Longest tool name, 16-128 (default 64); longer names are cut and given a hash. */
  maxNameLength?: number;
  /** Longest tool description (default 1024); longer ones are cut at a word. */
  maxDescriptionLength?: number;
  /** operationId → parameter name → header name: parameters mirrored as `x-mcp-header`. */
  headers?: Record<string, Record<string, string>>;
  /** operationId → tool annotations that override the method's defaults. */
  annotations?: Record<
    string,
    {
      title?: string;
      readOnlyHint?: boolean;
      destructiveHint?: boolean;
      idempotentHint?: boolean;
      openWorldHint?: boolean;
    }
  >;
  /** Per request to the API, in milliseconds. */
  timeoutMs?: number;
  /** Send each HTTP request's id (X-Request-Id) to the API in this header; absent: none is sent. */
  requestIdHeader?: string;
  /**
   * Whose token the document's oauth2 scopes bind when an operation signs each user in to the API (an
   * `authorizationCode` flow, feature `upstream-oauth`): `upstream` (default) asks the API's authorization server
   * for them only; `document` also demands them of MCP tokens, for when --auth-issuer is the API's own server.
   */
  mcpScopes?: "document" | "upstream";
  /** Attempts on 429 and 503 answers (default 3). */
  retryAttempts?: number;
  /** More selected operations than this is an error (default 5000). */
  maxTools?: number;
  /** Response schemas larger than this (JSON bytes with their $defs) give no outputSchema (default 131072). */
  maxOutputSchemaBytes?: number;
  /** Optional parameters every operation takes leave the tools' inputs for environment variables (default true);
   * `false` keeps them all on each tool, `keep` the ones named. */
  sharedParameters?: boolean | { keep: string[] };
};

/** One package to generate. Paths are relative to the config file's directory. */
export type GenerateTarget = {
  /** The spec: an mcpgen spec (YAML or JSON) or an OpenAPI document. */
  input: string;
  /** The package directory, created when missing. */
  output: string;
  /** Largest input file read, in MiB (default 32). */
  maxSize?: number;
  /** OpenAPI input only. */
  openapi?: OpenApiConfig;
  /**
   * Renames and merges toolsets: toolset name → the name it becomes (two sources to one target merge),
   * e.g. `{ pulls: "code", git: "code" }`. Targets follow the toolset-name rule (lowercase a-z, 0-9, `_`, `-`).
   */
  toolsets?: Record<string, string>;
  /** The runtime features beside the core (`all` for every one; unset: the core, `dynamic` over 128 tools,
   * `tasks` when a tool starts a long-running job, `apps` when a tool asks for a view and `upstream-oauth` for an
   * `authorizationCode` flow); `mcpgen generate
   * --features` wins. */
  features?: Array<
    | "all"
    | "none"
    | "apps"
    | "budget"
    | "code"
    | "dynamic"
    | "metrics"
    | "oauth"
    | "otel"
    | "redis"
    | "tasks"
    | "token-exchange"
    | "upstream-oauth"
  >;
};

/** One package, or several generated in order by one `mcpgen generate`. */
export type McpgenConfig = GenerateTarget | GenerateTarget[];

/** Returns its argument: it exists so editors type-check and complete the config (and flag a misspelt key). */
export function defineConfig(config: McpgenConfig): McpgenConfig {
  return config;
}
