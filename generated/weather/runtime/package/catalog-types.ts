// The contract with the generator: the types of what `mcpgen generate` writes into src/definition.ts and
// src/catalog.json. The generator builds values of them, so it cannot write one the runtime does not read.
import type { ContentBlock, Prompt, Resource, ResourceTemplate, Role, Tool } from "../protocol/types.ts";
import type { DeferredOffers } from "../server/server.ts";
import type { ServerOptions } from "../server/types.ts";

/** A credential the upstream takes (OpenAPI's securitySchemes); secrets come from `env` at call time. */
export type SecurityScheme =
  | { id: string; type: "apiKey"; in: "header" | "query" | "cookie"; name: string; env: string }
  | { id: string; type: "bearer" | "basic"; env: string; authorizationCode?: AuthorizationCodeFlow }
  | { id: string; type: "oauth2"; tokenUrl: string; scopes?: string[]; clientIdEnv: string; clientSecretEnv: string };

export type AuthorizationCodeFlow = { authorizationUrl: string; tokenUrl: string; scopes?: string[] }; // upstream-oauth
/** A `{name}` in the server URL: its default, the variable that overrides it, its allowed values. */
export type ServerVariable = { default: string; env: string; enum?: string[] };
/** An optional query parameter or header every operation takes (Google's `alt`, `quotaUser`...): left out of each
 * tool's input, sent with every request when `env` is set; `secret`: its value is redacted from answers. */
export type SharedParameter = { name: string; in: "query" | "header"; env: string; secret?: true };
/** Retries on 429 and 503, honouring Retry-After, with exponential backoff otherwise. */
export type RetryPolicy = { attempts: number; maxDelayMs: number };

export type UpstreamDefinition = {
  baseUrl: string;
  timeoutMs?: number;
  baseUrlTemplate?: string; // the server URL with `{variable}`s, filled from the variables' env (else their defaults)
  variables?: Record<string, ServerVariable>;
  securitySchemes?: SecurityScheme[];
  retry?: RetryPolicy;
  /** Send the HTTP request's id (X-Request-Id) upstream in this header (issue 18); absent: not sent. */
  requestIdHeader?: string;
  sharedParameters?: SharedParameter[];
};

/** Where one parameter goes and how it is serialized (OpenAPI 3 `style`/`explode`). */
export type HttpParameter = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  arg?: string[]; // path to the argument holding the value; absent means `[name]`
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  json?: boolean; // `content: application/json` parameters are sent as JSON text
};

/** The request body: either one argument holding it (`arg`), or the listed top-level arguments. */
export type HttpBody = { contentType: string; arg?: string; properties?: string[] };

export type HttpBinding = {
  method: string;
  path: string; // relative to the base URL, with `{param}` placeholders
  /** When present (or `body` is), only these parameters and the body are sent; else arguments go by name. */
  parameters?: HttpParameter[];
  body?: HttpBody;
  /** Alternative security requirements, each a list of scheme ids; `[]` in the list means "none needed". */
  security?: string[][];
  scopes?: string[]; // the API's OAuth scopes the operation needs, asked of its authorization server (upstream-oauth)
  baseUrl?: string; // an operation's own server URL (OpenAPI `servers` on a path or operation)
  fields?: true; // the tool takes mcpgen's `_fields` argument (field selection; never sent upstream)
  task?: TaskBinding; // the call starts a job the upstream finishes later: the `tasks` feature answers with an MCP task
};

/** How a long-running operation is followed (docs/long-running.md); pointers are JSON pointers. */
export type TaskBinding = {
  /** How it was found: a documented 202 with a poll header, `x-mcp-task` / `task:`, or a well-known shape. */
  style: "location" | "status" | "google-operation" | "azure";
  /** Where the status is read: the start answer's first of `headers` present (a URL, relative to the request's),
   * the URL at `link` in its body, or `path` (relative to the base URL) filled from the start answer's `params`. */
  poll: { headers?: string[]; link?: string; path?: string; params?: Record<string, string> };
  /** A status document: the value at `pointer` (compared as text: `true`, `Succeeded`) names a terminal state;
   * any other value is still working. Absent: the HTTP status says it (202 working, 200 the result). */
  status?: { pointer: string; completed: string[]; failed: string[]; cancelled?: string[] };
  /** Once completed, the result is the value at `pointer` in the status document, or the answer of a GET to the
   * URL at `link` in it, or of a GET to the URL the start answer gave in `header`; absent: the final answer. */
  result?: { pointer?: string; link?: string; header?: string };
  error?: string; // where a failed status document says why (Google's `/error`)
  /** `tasks/cancel`: `method` sent to the poll URL, or to `path` (relative to the base URL, filled like `poll`). */
  cancel?: { method: string; path?: string; params?: Record<string, string> };
  pollIntervalMs?: number; // suggested interval between polls when the upstream sends no Retry-After (default 2 s)
};

/** `scopes`: what a caller's token must grant to call or read it (issues 17, 27: OpenAPI `security`, or `scopes:`). */
type Bound = { http?: HttpBinding; scopes?: string[] };
/** `toolset` absent: `default`; `view`: how the apps feature shows its result (docs/views.md). */
export type CatalogTool = Tool & Bound & { toolset?: string; view?: ToolView };
/** Rows of a list (`items`: the property holding it; absent: the answer itself), one record's fields, or the
 * user's own page (`html`, served as is). `open`: the read-only tool a row opens. */
export type ToolView = TableView | { kind: "card"; fields: ViewField[] } | { kind: "html"; html: string };
type TableView = { kind: "table"; items?: string; columns: ViewField[]; open?: ViewLink };
/** A property shown: its key, its label (the schema's title, else the key in words), how its value is written. */
export type ViewField = { key: string; label: string; format: ViewFormat };
export type ViewFormat = "text" | "integer" | "number" | "date" | "date-time" | "boolean" | "link" | "object" | "list";
/** Each argument of the tool a row opens comes from the row (`row`: its key) or from the list call's input. */
export type ViewLink = { tool: string; label: string; args: Record<string, { from: "row" | "input"; key: string }> };
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
  toolsets?: CatalogToolset[]; // every toolset a tool names, sorted by name; absent when every tool is in `default`
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
  offers: DeferredOffers; // what the catalog holds, so the handshake states capabilities without reading it
  /** Every toolset's name, sorted, so `--toolsets` is checked without reading the catalog; absent: all `default`. */
  toolsetNames?: string[];
  /** Former tool names (`renamedFrom`, `x-mcp-renamed-from`) -> current ones, so a call of one is told the new name. */
  renamed?: Record<string, string>;
  catalog: () => Catalog; // read on first need, not at start-up: GitHub's catalog is 3 MB of JSON
};
