// The contract with the generator: the types of what `mcpgen generate` writes into src/definition.ts and
// src/catalog.json. The generator builds values of them, so it cannot write one the runtime does not read.
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

export type HttpBinding = {
  method: string;
  /** Relative to the base URL, with `{param}` placeholders. */
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

/** `scopes`: what a caller's token must grant to call or read it (issues 17, 27: OpenAPI `security`, or `scopes:`). */
type Bound = { http?: HttpBinding; scopes?: string[] };
/** `toolset` absent: `default`. */
export type CatalogTool = Tool & Bound & { toolset?: string };
/** A toolset's name (what `--toolsets` takes) and what it is about (OpenAPI: the tag's description). */
export type CatalogToolset = { name: string; description?: string };
export type CatalogResource = Resource & Bound & { text?: string; blob?: string };
export type StaticCompletions = { [name: string]: string[] }; // completion/complete's values, by argument name
export type CatalogTemplate = ResourceTemplate & Bound & { completions?: StaticCompletions };
/** A prompt message whose text may hold `{{argument}}` placeholders. */
export type PromptMessageTemplate = { role: Role; content: ContentBlock };
export type CatalogPrompt = Prompt & { messages?: PromptMessageTemplate[]; completions?: StaticCompletions };

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
  "//"?: string; // the do-not-edit header
  defs?: Record<string, unknown>;
  tools: Array<CatalogTool & { inputDefs?: Record<string, string>; outputDefs?: Record<string, string> }>;
};

type IdentityKey = "name" | "version" | "title" | "description" | "instructions" | "websiteUrl" | "icons";
export type ServerIdentity = Pick<ServerOptions, IdentityKey>;

export type ServerDefinition = {
  server: ServerIdentity;
  upstream?: UpstreamDefinition;
  /** What the catalog holds, so the handshake can state capabilities without reading it. */
  offers: DeferredOffers;
  /** Every toolset's name, sorted, so `--toolsets` is checked without reading the catalog; absent: all `default`. */
  toolsetNames?: string[];
  /** Read on first need, not at start-up: GitHub's catalog is 3 MB of JSON. */
  catalog: () => Catalog;
};
