/**
 * The intermediate representation every stage shares.
 *
 * Both front ends (the mcpgen spec language and OpenAPI, generator/openapi) load into these nodes; validation,
 * normalization and rendering only ever see the IR. Nodes are a `kind`-tagged union and each carries
 * the source location it came from, so any stage can point a diagnostic back at the user's file.
 * Field names follow MCP's own (`inputSchema`, `uriTemplate`, `mimeType`...), so a `tools/list`
 * result reads like the spec that produced it.
 */

/** Where a node came from: the file, the JSON pointer into the parsed document, and 1-based line/col. */
export type SourceLoc = { file: string; pointer: string; line: number; col: number };

/** A JSON Schema object as written by the user (dialect 2020-12 unless its `$schema` says draft-07). */
export type JsonSchema = { [key: string]: unknown };

export type Icon = { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" };

export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type UpstreamAuth =
  | { type: "bearer"; env: string }
  | { type: "basic"; env: string }
  | { type: "apiKey"; in: "header" | "query"; name: string; env: string };

/** A security scheme an http binding may use (OpenAPI's securitySchemes); secrets come from `env` at call time. */
export type SecuritySchemeNode =
  | { id: string; type: "apiKey"; in: "header" | "query" | "cookie"; name: string; env: string }
  | { id: string; type: "bearer" | "basic"; env: string }
  | { id: string; type: "oauth2"; tokenUrl: string; scopes?: string[]; clientIdEnv: string; clientSecretEnv: string };

/** A `{name}` in an OpenAPI server URL: its default, the variable that overrides it, its allowed values. */
export type ServerVariableNode = { default: string; env: string; enum?: string[] };

export type RetryPolicy = { attempts: number; maxDelayMs: number };

export type UpstreamNode = {
  kind: "upstream";
  loc: SourceLoc;
  baseUrl: string;
  auth?: UpstreamAuth & { loc: SourceLoc };
  timeoutMs?: number;
  /** The server URL with `{variable}` placeholders; `baseUrl` is it with the defaults filled in. */
  baseUrlTemplate?: string;
  variables?: { [name: string]: ServerVariableNode };
  securitySchemes?: SecuritySchemeNode[];
  /** Retries on 429 and 503, honouring Retry-After, with exponential backoff otherwise. */
  retry?: RetryPolicy;
};

/** Where one OpenAPI parameter goes and how it is serialized (OpenAPI 3 `style`/`explode`). */
export type HttpParameterNode = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  /** Path to the argument holding the value: [name] when flattened, ["query", name] when grouped. */
  arg: string[];
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  /** `content: application/json` parameters are sent as JSON text. */
  json?: boolean;
};

/** The request body: either one argument holding it (`arg`), or the listed top-level arguments (flattened). */
export type HttpBodyNode = { contentType: string; arg?: string; properties?: string[] };

/** Forwarding of a tool call or resource read to the upstream REST API. */
export type HttpBindingNode = {
  kind: "httpBinding";
  loc: SourceLoc;
  method: string;
  /** Path relative to `upstream.baseUrl`, with `{param}` placeholders filled from arguments by name. */
  path: string;
  /** Explicit mapping (OpenAPI): when present, only these parameters and the body are sent. */
  parameters?: HttpParameterNode[];
  body?: HttpBodyNode;
  /** Alternative security requirements, each a list of scheme ids; `[]` in the list means "none needed". */
  security?: string[][];
  /** An operation's own absolute server URL (OpenAPI path- or operation-level `servers`). */
  baseUrl?: string;
};

export type ToolNode = {
  kind: "tool";
  loc: SourceLoc;
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  http?: HttpBindingNode;
  /** The tool's previous name (`renamedFrom`, OpenAPI `x-mcp-renamed-from`): its handler file moves. */
  renamedFrom?: string;
};

export type ResourceContent = { type: "text"; text: string } | { type: "blob"; blob: string };

export type ResourceNode = {
  kind: "resource";
  loc: SourceLoc;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  /** Static content served as is; absent when `http` or a user handler provides it. */
  content?: ResourceContent;
  http?: HttpBindingNode;
};

export type ResourceTemplateNode = {
  kind: "resourceTemplate";
  loc: SourceLoc;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  http?: HttpBindingNode;
  /** Values completion/complete offers per template variable. */
  completions?: { [variable: string]: string[] };
};

export type PromptArgumentNode = {
  kind: "promptArgument";
  loc: SourceLoc;
  name: string;
  title?: string;
  description?: string;
  required: boolean;
  /** Values completion/complete offers for this argument. */
  completions?: string[];
};

/** One message template; `content` is an MCP content block whose text may hold `{{argument}}` placeholders. */
export type PromptMessageNode = {
  kind: "promptMessage";
  loc: SourceLoc;
  role: string;
  content: { [key: string]: unknown };
};

export type PromptNode = {
  kind: "prompt";
  loc: SourceLoc;
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  arguments: PromptArgumentNode[];
  /** Absent when a user handler builds the messages. */
  messages?: PromptMessageNode[];
};

export type ServerNode = {
  kind: "server";
  loc: SourceLoc;
  /** Which front end produced this IR; OpenAPI-derived names and schemas get extra hints. */
  origin: "spec" | "openapi";
  /** Set when the IR was built from other files too (an OpenAPI document's external $refs): the
   * spec's bytes alone then do not determine the output, so no fingerprint is kept (fingerprint.ts). */
  externalRefs?: true;
  name: string;
  version: string;
  title?: string;
  description?: string;
  instructions?: string;
  websiteUrl?: string;
  icons?: Icon[];
  upstream?: UpstreamNode;
  tools: ToolNode[];
  resources: ResourceNode[];
  resourceTemplates: ResourceTemplateNode[];
  prompts: PromptNode[];
  /** Defects of a vendor's OpenAPI document that mcpgen repaired (each also a warning), for the README. */
  repairs?: Array<{ pointer: string; message: string }>;
  /** OpenAPI: the document pointer a tool-schema object was converted from, if any, so that a defect
   * in a shared schema is reported once, where the vendor wrote it, not once per tool. */
  sourceOf?: (schema: object) => string | undefined;
};

export type IrNode =
  | ServerNode
  | UpstreamNode
  | HttpBindingNode
  | ToolNode
  | ResourceNode
  | ResourceTemplateNode
  | PromptNode
  | PromptArgumentNode
  | PromptMessageNode;
