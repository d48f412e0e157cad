/**
 * The intermediate representation every stage shares.
 *
 * Both front ends (the mcpgen spec language and, later, OpenAPI) load into these nodes; validation,
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

export type UpstreamNode = {
  kind: "upstream";
  loc: SourceLoc;
  baseUrl: string;
  auth?: UpstreamAuth & { loc: SourceLoc };
  timeoutMs?: number;
};

/** Forwarding of a tool call or resource read to the upstream REST API. */
export type HttpBindingNode = {
  kind: "httpBinding";
  loc: SourceLoc;
  method: string;
  /** Path relative to `upstream.baseUrl`, with `{param}` placeholders filled from arguments by name. */
  path: string;
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
};

export type PromptArgumentNode = {
  kind: "promptArgument";
  loc: SourceLoc;
  name: string;
  title?: string;
  description?: string;
  required: boolean;
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
