// Wire types mirroring the MCP schema (2026-07-28, with the 2025-era additions the runtime still
// speaks); index signatures stay open where the schema allows extra members.
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

export type RequestId = string | number;
export type Cursor = string;

export type JsonRpcRequest = { jsonrpc: "2.0"; id: RequestId; method: string; params?: JsonObject };
export type JsonRpcNotification = { jsonrpc: "2.0"; method: string; params?: JsonObject };
export type JsonRpcError = { code: number; message: string; data?: unknown };
export type JsonRpcResultResponse = { jsonrpc: "2.0"; id: RequestId; result: Result };
export type JsonRpcErrorResponse = { jsonrpc: "2.0"; id?: RequestId | null; error: JsonRpcError };
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type ResultType = "complete" | "input_required" | (string & {});
export type Result = { _meta?: JsonObject; resultType?: ResultType; [key: string]: unknown };
export type CacheScope = "public" | "private";
export type CacheableFields = { ttlMs?: number; cacheScope?: CacheScope };

export type Icon = { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" };
/** What implementations, tools, resources and prompts all have. */
type Named = { name: string; title?: string; description?: string; icons?: Icon[] };
export type Implementation = Named & { version: string; websiteUrl?: string };

type Capabilities = { experimental?: Record<string, JsonObject>; extensions?: Record<string, JsonObject> };
type ListChanged = { listChanged?: boolean };
export type ClientCapabilities = Capabilities & {
  roots?: ListChanged;
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  [key: string]: unknown;
};
export type ServerCapabilities = Capabilities & {
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: ListChanged;
  resources?: ListChanged & { subscribe?: boolean };
  tools?: ListChanged;
  [key: string]: unknown;
};

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export type Role = "user" | "assistant";
export type Annotations = { audience?: Role[]; priority?: number; lastModified?: string };

export type TextContent = { type: "text"; text: string; annotations?: Annotations; _meta?: JsonObject };
type MediaContent = { data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject };
export type ImageContent = MediaContent & { type: "image" };
export type AudioContent = MediaContent & { type: "audio" };
export type TextResourceContents = { uri: string; mimeType?: string; text: string; _meta?: JsonObject };
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };
export type ResourceContents = TextResourceContents | BlobResourceContents;
export type EmbeddedResource = {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
};
export type ResourceLink = Resource & { type: "resource_link" };
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};
export type Tool = Named & {
  inputSchema: { $schema?: string; type: "object"; [key: string]: unknown };
  outputSchema?: { $schema?: string; [key: string]: unknown };
  annotations?: ToolAnnotations;
  /** 2025-11-25: whether a tools/call may be task-augmented (default "forbidden"). */
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  _meta?: JsonObject;
};
export type CallToolResult = Result & { content: ContentBlock[]; structuredContent?: unknown; isError?: boolean };
export type ListToolsResult = Result & CacheableFields & { tools: Tool[]; nextCursor?: Cursor };

type ResourceFields = Named & { mimeType?: string; annotations?: Annotations; _meta?: JsonObject };
export type Resource = ResourceFields & { uri: string; size?: number };
export type ResourceTemplate = ResourceFields & { uriTemplate: string };
export type ListResourcesResult = Result & CacheableFields & { resources: Resource[]; nextCursor?: Cursor };
export type ListResourceTemplatesResult = Result &
  CacheableFields & { resourceTemplates: ResourceTemplate[]; nextCursor?: Cursor };
export type ReadResourceResult = Result & CacheableFields & { contents: ResourceContents[] };

export type PromptArgument = { name: string; title?: string; description?: string; required?: boolean };
export type Prompt = Named & { arguments?: PromptArgument[]; _meta?: JsonObject };
export type PromptMessage = { role: Role; content: ContentBlock };
export type ListPromptsResult = Result & CacheableFields & { prompts: Prompt[]; nextCursor?: Cursor };
export type GetPromptResult = Result & { description?: string; messages: PromptMessage[] };

export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
export type Completion = { values: string[]; total?: number; hasMore?: boolean };
export type CompleteResult = Result & { completion: Completion };

export type SamplingMessage = { role: Role; content: unknown; _meta?: JsonObject };
export type CreateMessageParams = {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: JsonObject;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: "none" | "thisServer" | "allServers";
  metadata?: JsonObject;
  [key: string]: unknown;
};
export type CreateMessageResult = SamplingMessage & { model: string; stopReason?: string; [key: string]: unknown };
export type ElicitParams =
  | { mode?: "form"; message: string; requestedSchema: JsonObject & { type: "object" } }
  | { mode: "url"; message: string; url: string; elicitationId?: string };
export type ElicitResult = {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
  [key: string]: unknown;
};
export type Root = { uri: string; name?: string; _meta?: JsonObject };
export type ListRootsResult = { roots: Root[]; [key: string]: unknown };

/** A server-to-client request: sent as a real request (2025 era) or embedded in an MRTR result (2026 era). */
export type InputRequest =
  | { method: "sampling/createMessage"; params: CreateMessageParams }
  | { method: "elicitation/create"; params: ElicitParams }
  | { method: "roots/list"; params?: JsonObject };
export type InputResponse = CreateMessageResult | ElicitResult | ListRootsResult;
export type InputRequiredResult = Result & {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
};

export type SubscriptionFilter = {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
};

/** The shape of an ajv standalone validator: generated servers ship these precompiled. */
export type ValidatorError = { instancePath?: string; message?: string; keyword?: string; params?: unknown };
export type Validator = ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };
