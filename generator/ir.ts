/**
 * The intermediate representation every stage shares.
 *
 * Both front ends (the mcpgen spec language and OpenAPI, generator/openapi) load into these nodes; validation,
 * normalization and rendering only ever see the IR. Nodes are a `kind`-tagged union and each carries
 * the source location it came from, so any stage can point a diagnostic back at the user's file.
 * Field names follow MCP's own (`inputSchema`, `uriTemplate`, `mimeType`...), so a `tools/list`
 * result reads like the spec that produced it. Where a node and the runtime describe the same data,
 * the node is the runtime's type (runtime/package/catalog-types.ts, runtime/protocol/types.ts) plus `kind` and `loc`.
 */

import type {
  HttpBinding,
  HttpBody,
  HttpParameter,
  SecurityScheme,
  ServerIdentity,
  SharedParameter,
  StaticCompletions,
  TaskBinding,
  UpstreamDefinition,
} from "../runtime/package/catalog-types.ts";
import type { Prompt, PromptArgument, Resource, ResourceTemplate, Tool } from "../runtime/protocol/types.ts";

/** Where a node came from: the file, the JSON pointer into the parsed document, and 1-based line/col. */
export type SourceLoc = { file: string; pointer: string; line: number; col: number };

/** A JSON Schema object as written by the user (dialect 2020-12 unless its `$schema` says draft-07). */
export type JsonSchema = { [key: string]: unknown };

export type { RetryPolicy, ServerVariable } from "../runtime/package/catalog-types.ts";
export type { Icon, ToolAnnotations } from "../runtime/protocol/types.ts";

/** A credential an http binding may use. `loc` is set for the spec language's `upstream.auth`, which the
 * loader lowers to this, OpenAPI's form (its schemes point at the document by id instead). */
export type SecuritySchemeNode = SecurityScheme & { loc?: SourceLoc; signIn?: SignIn };

/**
 * OpenAPI: a bearer scheme that stands for an OAuth2 flow needing a user (implicit, authorization code,
 * password) or OpenID Connect: the server cannot sign in itself, so it sends a token obtained beforehand.
 * The README and the server's env listing say so; the catalog leaves it out (the runtime sends a bearer).
 */
export type SignIn = { flows: string[]; url?: string };

/** A parameter every operation takes (openapi/shared-parameters.ts), with what the README says of it and where it
 * was written (`pointer`, for diagnostics). */
export type SharedParameterNode = SharedParameter & { description?: string; enum?: string[]; pointer: string };

export type UpstreamNode = Omit<UpstreamDefinition, "securitySchemes" | "sharedParameters"> & {
  kind: "upstream";
  loc: SourceLoc;
  securitySchemes?: SecuritySchemeNode[];
  /** OpenAPI config `mcpScopes: document`: the document's oauth2 scopes bind MCP tokens too, beside the upstream
   * sign-in (the MCP issuer is the API's own authorization server); normalize/upstream-scopes.ts. */
  mcpScopes?: "document";
  sharedParameters?: SharedParameterNode[];
};

/** The IR always says which argument holds a parameter (`arg`); the catalog leaves out the default `[name]`. */
export type HttpParameterNode = HttpParameter & { arg: string[] };

export type HttpBodyNode = HttpBody;

/**
 * A long-running operation a tool starts (issue 30), as the catalog states it (TaskBinding). `loc` is where it was
 * written (`task:`, `x-mcp-task`) or what it was detected from (the operation's 202 response, say); rules report
 * a field's fault at `loc.pointer` + the field's path, which points into the document for a written binding.
 */
export type TaskNode = TaskBinding & {
  kind: "task";
  loc: SourceLoc;
  /** How it was found, for the diagnostics: written by the user, or detected (then it is checked by construction). */
  source: "written" | "detected";
};

/** Forwarding of a tool call or resource read to the upstream REST API. */
export type HttpBindingNode = Omit<HttpBinding, "parameters" | "task"> & {
  kind: "httpBinding";
  loc: SourceLoc;
  /** Explicit mapping (OpenAPI): when present, only these parameters and the body are sent. */
  parameters?: HttpParameterNode[];
  /** OpenAPI: whether a 2xx response declares a JSON media type (absent: not known, as in the spec language). */
  answersJson?: boolean;
  /** Tools only: the call starts a job the `tasks` feature follows. */
  task?: TaskNode;
};

/** A tool as MCP lists it. Its schemas are as written: the schema rules check they describe objects. */
export type ToolNode = Pick<Tool, "name" | "title" | "description" | "annotations" | "icons"> & {
  kind: "tool";
  loc: SourceLoc;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /**
   * OpenAPI: the 2xx JSON answer's schema when it is no object (a list, mostly). No outputSchema can say
   * it (MCP's must describe an object), but code mode's declarations type the answer with it.
   */
  resultSchema?: JsonSchema;
  http?: HttpBindingNode;
  /** The toolset it belongs to: OpenAPI's first tag (else the first path segment), `toolset:` in the
   * spec language, else `default`; the config file may rename or merge toolsets. */
  toolset?: string;
  /** OAuth scopes a caller's token must grant (issue 17): `scopes:` in the spec language, OpenAPI: the
   * oauth2/openIdConnect scopes of the operation's first security requirement that names such a scheme. */
  scopes?: string[];
  /** The tool's previous name (`renamedFrom`, OpenAPI `x-mcp-renamed-from`): its handler file moves. */
  renamedFrom?: string;
  /** `task: true`: its handler may run as an MCP task (the tasks feature's ctx.task). */
  task?: true;
  /** `ui:` (OpenAPI `x-mcp-ui`): the view the apps feature gives its result; absent: chosen from its output. */
  ui?: UiNode;
};

/** A view asked for: none (`false`), a table, a card, or the path (relative to `loc.file`) of the user's own page. */
export type UiNode = { kind: "ui"; loc: SourceLoc; value: unknown };

export type ResourceContent = { type: "text"; text: string } | { type: "blob"; blob: string };

export type ResourceNode = Pick<Resource, "uri" | "name" | "title" | "description" | "mimeType" | "size" | "icons"> & {
  kind: "resource";
  loc: SourceLoc;
  /** Static content served as is; absent when `http` or a user handler provides it. */
  content?: ResourceContent;
  http?: HttpBindingNode;
  /** OAuth scopes a caller's token must grant to read it (`scopes:` in the spec language). */
  scopes?: string[];
};

export type ResourceTemplateNode = Pick<
  ResourceTemplate,
  "uriTemplate" | "name" | "title" | "description" | "mimeType" | "icons"
> & {
  kind: "resourceTemplate";
  loc: SourceLoc;
  http?: HttpBindingNode;
  /** Values completion/complete offers per template variable. */
  completions?: StaticCompletions;
  /** OAuth scopes a caller's token must grant to read its resources: `scopes:` in the spec language; OpenAPI:
   * its operation's, as the operation's tool would need (issue 27). */
  scopes?: string[];
};

export type PromptArgumentNode = PromptArgument & {
  kind: "promptArgument";
  loc: SourceLoc;
  required: boolean;
  /** Values completion/complete offers for this argument. */
  completions?: string[];
};

/** One message template as written (the prompt rules check the role and that `content` is an MCP content
 * block, which the catalog's PromptMessageTemplate requires); its text may hold `{{argument}}` placeholders. */
export type PromptMessageNode = {
  kind: "promptMessage";
  loc: SourceLoc;
  role: string;
  content: { [key: string]: unknown };
};

export type PromptNode = Pick<Prompt, "name" | "title" | "description" | "icons"> & {
  kind: "prompt";
  loc: SourceLoc;
  arguments: PromptArgumentNode[];
  /** Absent when a user handler builds the messages. */
  messages?: PromptMessageNode[];
};

/** The server as its definition states it, plus what the generator alone needs. */
export type ServerNode = ServerIdentity & {
  kind: "server";
  loc: SourceLoc;
  /** Which front end produced this IR; OpenAPI-derived names and schemas get extra hints. */
  origin: "spec" | "openapi";
  /** Set when the IR was built from other files too (an OpenAPI document's external $refs): the
   * spec's bytes alone then do not determine the output, so no fingerprint is kept (fingerprint.ts). */
  externalRefs?: true;
  upstream?: UpstreamNode;
  /** The spec's `package: { private: true }`: the generated package.json says "private" (npm will not publish it). */
  packagePrivate?: true;
  /** The runtime features asked for (the spec's `features`, else generate's --features or the config's); unset:
   * the defaults (render/features.ts). `all` stands for every one. */
  features?: string[];
  tools: ToolNode[];
  resources: ResourceNode[];
  resourceTemplates: ResourceTemplateNode[];
  prompts: PromptNode[];
  /** What toolsets are about, by name (OpenAPI: the top-level `tags` descriptions); not every toolset has one. */
  toolsetDescriptions?: Record<string, string>;
  /** Defects of a vendor's OpenAPI document that mcpgen repaired (each also a warning), for the README. */
  repairs?: Array<{ pointer: string; message: string }>;
  /** OpenAPI: the document pointer a tool-schema object was converted from, if any, so that a defect
   * in a shared schema is reported once, where the vendor wrote it, not once per tool. Once the rules
   * are done, generate lets the document go (Loaded.release): it then knows the converted definitions alone. */
  sourceOf?: (schema: object) => string | undefined;
  /** OpenAPI: the config's maxDescriptionLength; descriptions in served tool schemas are cut at the
   * smaller of it and PROPERTY_DESCRIPTION_LENGTH (normalize/compact-schema.ts). */
  maxDescriptionLength?: number;
  /** The MCP Registry name (`io.github.owner/name`): spec `server.registryName`, OpenAPI
   * `info.x-mcp-registry-name`; server.json holds a placeholder without it (render/registry-server-json.ts). */
  registryName?: string;
};

export type IrNode =
  | ServerNode
  | UpstreamNode
  | HttpBindingNode
  | TaskNode
  | ToolNode
  | ResourceNode
  | ResourceTemplateNode
  | PromptNode
  | PromptArgumentNode
  | PromptMessageNode;
