// The contract between mcpgen's generator and this runtime: the types of everything `mcpgen generate`
// writes into a package's src/definition.ts and src/catalog.json (server identity, upstream, the catalog
// of tools, resources, templates and prompts, their http bindings and credentials). The generator
// imports these types (type-only) and builds values of them, so it cannot write a definition or catalog the runtime
// does not read. Types only: nothing here runs.

import type { ContentBlock, Prompt, Resource, ResourceTemplate, Role, Tool } from "../protocol/types.ts";
import type { DeferredOffers } from "../server/server.ts";
import type { ServerOptions } from "../server/types.ts";

/** A credential the upstream takes (OpenAPI's securitySchemes); secrets come from `env` at call time. */
export type SecurityScheme =
  | { id: string; type: "apiKey"; in: "header" | "query" | "cookie"; name: string; env: string }
  | { id: string; type: "bearer" | "basic"; env: string }
  | { id: string; type: "oauth2"; tokenUrl: string; scopes?: string[]; clientIdEnv: string; clientSecretEnv: string };

/** A `{name}` in the server URL: its default, the variable that overrides it, its allowed values. */
export type ServerVariable = { default: string; env: string; enum?: string[] };

/** Retries on 429 and 503, honouring Retry-After, with exponential backoff otherwise. */
export type RetryPolicy = { attempts: number; maxDelayMs: number };

/** The upstream REST API http bindings forward to, as the server definition states it. */
export type UpstreamDefinition = {
  baseUrl: string;
  timeoutMs?: number;
  /** The server URL with `{variable}`s, filled from the variables' env (else their defaults). */
  baseUrlTemplate?: string;
  variables?: Record<string, ServerVariable>;
  securitySchemes?: SecurityScheme[];
  retry?: RetryPolicy;
  /** Send the HTTP request's id (X-Request-Id) upstream in this header (issue 18); absent: not sent. */
  requestIdHeader?: string;
};

/** Where one parameter goes and how it is serialized (OpenAPI 3 `style`/`explode`). */
export type HttpParameter = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  /** Path to the argument holding the value; absent means `[name]`. */
  arg?: string[];
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  /** `content: application/json` parameters are sent as JSON text. */
  json?: boolean;
};

/** The request body: either one argument holding it (`arg`), or the listed top-level arguments. */
export type HttpBody = { contentType: string; arg?: string; properties?: string[] };

/** Forwarding of a tool call or resource read to the upstream REST API. */
export type HttpBinding = {
  method: string;
  /** Path relative to the base URL, with `{param}` placeholders. */
  path: string;
  /** When present (or `body` is), only these parameters and the body are sent; else arguments go by name. */
  parameters?: HttpParameter[];
  body?: HttpBody;
  /** Alternative security requirements, each a list of scheme ids; `[]` in the list means "none needed". */
  security?: string[][];
  /** An operation's own server URL (OpenAPI `servers` on a path or operation). */
  baseUrl?: string;
  /** The tool takes mcpgen's `_fields` argument (field selection; never sent upstream). */
  fields?: true;
};

/**
 * A tool as the catalog states it: its MCP definition, its http binding, and the toolset it belongs to
 * (`--toolsets` serves a subset; dynamic mode browses by toolset). Absent toolset means `default`.
 */
export type CatalogTool = Tool & {
  http?: HttpBinding;
  toolset?: string;
  /** OAuth scopes a caller's token must grant to call the tool (issue 17: OpenAPI `security`, or `scopes:`). */
  scopes?: string[];
};
/** A toolset's name (what `--toolsets` takes) and what it is about (OpenAPI: the tag's description). */
export type CatalogToolset = { name: string; description?: string };
/** `scopes`: OAuth scopes a caller's token must grant to read it (issue 27: OpenAPI `security`, or `scopes:`). */
export type CatalogResource = Resource & { text?: string; blob?: string; http?: HttpBinding; scopes?: string[] };
/** Values completion/complete offers, by argument or template variable name. */
export type StaticCompletions = { [name: string]: string[] };
export type CatalogTemplate = ResourceTemplate & {
  http?: HttpBinding;
  completions?: StaticCompletions;
  /** OAuth scopes a caller's token must grant to read its resources (its operation's, as a tool's). */
  scopes?: string[];
};
/** A prompt message whose text may hold `{{argument}}` placeholders. */
export type PromptMessageTemplate = { role: Role; content: ContentBlock };
export type CatalogPrompt = Prompt & { messages?: PromptMessageTemplate[]; completions?: StaticCompletions };

/** The tools, resources, templates and prompts: a generated package keeps them in src/catalog.json. */
export type Catalog = {
  tools: CatalogTool[];
  /** Every toolset a tool names, sorted by name; absent when every tool is in `default`. */
  toolsets?: CatalogToolset[];
  resources: CatalogResource[];
  resourceTemplates: CatalogTemplate[];
  prompts: CatalogPrompt[];
};

/** How catalog.json stores the catalog: each shared `$defs` entry once, under `defs`, named per schema. */
export type StoredCatalog = Omit<Catalog, "tools"> & {
  /** The do-not-edit header. */
  "//"?: string;
  defs?: Record<string, unknown>;
  tools: Array<CatalogTool & { inputDefs?: Record<string, string>; outputDefs?: Record<string, string> }>;
};

/** The server identity the definition states. */
export type ServerIdentity = Pick<
  ServerOptions,
  "name" | "version" | "title" | "description" | "instructions" | "websiteUrl" | "icons"
>;

/** src/definition.ts's `definition`. */
export type ServerDefinition = {
  server: ServerIdentity;
  upstream?: UpstreamDefinition;
  /** What the catalog holds, so the handshake can state capabilities without reading it. */
  offers: DeferredOffers;
  /**
   * Every toolset's name, sorted, so `--toolsets` is checked at start-up without reading the catalog;
   * absent when every tool is in `default`.
   */
  toolsetNames?: string[];
  /** Read on first need, not at start-up: GitHub's catalog is 3 MB of JSON. */
  catalog: () => Catalog;
};
