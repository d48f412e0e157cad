// A server described by data: what `mcpgen generate` emits is a definition and a catalog (the spec's tools,
// resources, templates and prompts as plain JSON), precompiled validators and a table of the
// user's handlers. This module turns them into a running server: http bindings forward to the
// upstream, static resources and prompt templates serve themselves, the rest call handlers.
import { readFileSync } from "node:fs";
import { ownValue, setOwn } from "../protocol/codec.ts";
import { ErrorCode } from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type { ContentBlock, GetPromptResult, Validator } from "../protocol/types.ts";
import { observeUpstream } from "../server/log.ts";
import { createServer, type McpServer } from "../server/server.ts";
import type {
  CompleteFunction,
  HandlerContext,
  ResourceReadResult,
  ServerOptions,
  ToolHandlerResult,
} from "../server/types.ts";
import { type CredentialsHook, resolveCredentials } from "../upstream/credentials.ts";
import { resourceContentsFrom, toolAnswerFrom } from "../upstream/response.ts";
import type { CallUpstream, UpstreamConfig } from "../upstream/types.ts";
import type {
  Catalog,
  CatalogTool,
  ServerDefinition as DefinitionData,
  HttpBinding,
  StaticCompletions,
  StoredCatalog,
} from "./catalog-types.ts";
import { type Feature, type FeatureServerOptions, modeFeature, type ResultFitter, resultFitter } from "./feature.ts";
import { selectAnswer, takeFields } from "./field-select.ts";
import { filters, notEnabledReason, selects, type ToolSelection } from "./tool-selection.ts";

// The catalog's types are the contract with the generator (catalog-types.ts); generated code names them here.
export type {
  Catalog,
  CatalogPrompt,
  CatalogResource,
  CatalogTemplate,
  CatalogTool,
  PromptMessageTemplate,
  StaticCompletions,
  StoredCatalog,
} from "./catalog-types.ts";

/**
 * A generated src/definition.ts: the data the generator writes, plus, beside an upstream, upstream/forward.ts's
 * `callUpstream`. It is passed in rather than imported so a package without an upstream carries none of it.
 */
export type ServerDefinition = DefinitionData & { callUpstream?: CallUpstream };

/** A catalog file written by `mcpgen generate` (src/catalog.json), each tool schema whole again. */
export function readCatalog(file: URL): Catalog {
  const stored = JSON.parse(readFileSync(file, "utf8")) as StoredCatalog;
  const defs = stored.defs ?? {};
  // The definitions stay shared objects: tools/list serializes each schema whole, and nothing changes them.
  const joined = (names: Record<string, string>) =>
    Object.fromEntries(Object.entries(names).map(([name, id]) => [name, ownValue(defs, id)]));
  for (const tool of stored.tools) {
    if (tool.inputDefs) tool.inputSchema = { ...tool.inputSchema, $defs: joined(tool.inputDefs) };
    if (tool.outputDefs && tool.outputSchema)
      tool.outputSchema = { ...tool.outputSchema, $defs: joined(tool.outputDefs) };
    delete tool.inputDefs;
    delete tool.outputDefs;
  }
  delete stored.defs;
  return stored;
}

/** A tool handler's result, with `structuredContent` typed by the tool's outputSchema. */
// An intersection, not Omit: Omit over CallToolResult's index signature would drop its known fields.
export type ToolResult<Structured> = ToolHandlerResult & { structuredContent?: Structured };
/** What a handler of a generated package receives: the runtime's context plus the server itself
 * (to register or remove entries at run time, or to notify subscribers). */
export type SpecContext = HandlerContext & { server: McpServer };
export type ToolHandler<Args, Structured> = (
  args: Args,
  ctx: SpecContext,
) => ToolResult<Structured> | Promise<ToolResult<Structured>>;
export type ResourceHandler = (uri: string, ctx: SpecContext) => ResourceReadResult | Promise<ResourceReadResult>;
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string>,
  ctx: SpecContext,
) => ResourceReadResult | Promise<ResourceReadResult>;
export type PromptHandler<Args> = (args: Args, ctx: SpecContext) => GetPromptResult | Promise<GetPromptResult>;

// Handlers arrive typed per entry from generated code; here they are only called, so `never` args accept any.
type AnyFunction = (...args: never[]) => unknown;
export type SpecHandlers = {
  tools?: Record<string, AnyFunction>;
  resources?: Record<string, AnyFunction>;
  resourceTemplates?: Record<string, AnyFunction>;
  prompts?: Record<string, AnyFunction>;
};

export type ToolValidators = Record<string, { input: Validator; output?: Validator }>;

export type SpecServerOptions = {
  handlers?: SpecHandlers;
  /** Precompiled validators by tool name, or a function making them (called when the catalog is read). */
  validators?: ToolValidators | (() => ToolValidators);
  /** Overrides `upstream.baseUrl` (the --base-url flag). */
  baseUrl?: string;
  /** Characters of an upstream answer read before it is cut (--max-upstream-body; default 1,000,000). */
  maxUpstreamBody?: number;
  /** Same-origin upstream redirects followed (--max-redirects; default 5). */
  maxRedirects?: number;
  env?: NodeJS.ProcessEnv;
  serverOptions?: Omit<ServerOptions, "name" | "version">;
  /** Only these toolsets (--toolsets; undefined: all of them). Names are checked by the caller (spec-main.ts). */
  toolsets?: readonly string[];
  /** Only tools with `readOnlyHint: true` (--read-only). */
  readOnly?: boolean;
  /** `dynamic`: tools/list gives the five tools of dynamic-tools.ts instead of the catalog's (--mode). */
  mode?: ServeMode;
  /** The features the package was generated with (runtime/features/<name>/feature.ts): modes, HTTP parts. */
  features?: readonly Feature[];
  /** The package's src/credentials.ts hook: per-user upstream credentials, consulted before the rest. */
  credentials?: CredentialsHook<SpecContext>;
} & FeatureServerOptions;

/** What tools/list gives: every served tool (`all`), dynamic mode's five, or code mode's two. */
export type ServeMode = "all" | "dynamic" | "code";

/** The result a scaffolded tool handler returns until the user writes it. */
export function notImplemented(kind: string, name: string, file: string): ToolResult<never> {
  return {
    isError: true,
    content: [{ type: "text", text: `The ${kind} '${name}' is not implemented yet: edit ${file}.` }],
  };
}

/** The error a scaffolded resource or prompt handler throws until the user writes it. */
export function notImplementedError(kind: string, name: string, file: string): McpError {
  return new McpError(ErrorCode.InternalError, `The ${kind} '${name}' is not implemented yet: edit ${file}.`);
}

/** What the parts of a spec server share: its inputs, the server, and what the catalog left out. */
type SpecRuntime = {
  definition: ServerDefinition;
  options: SpecServerOptions;
  server: McpServer;
  selection: ToolSelection;
  /** The catalog's tools this server leaves out, by name, filled when the catalog is read: a call of one
   * is told it exists but is not enabled, rather than that it does not exist. */
  leftOut: Map<string, CatalogTool>;
  /** Catalog tools named like one of dynamic (or code) mode's own, which take the name in that mode. */
  shadowed: Set<string>;
  upstream: UpstreamConfig | undefined;
  /** The features shaping tool results (the response budget); without any, results pass as they are. */
  fitResult: ResultFitter | undefined;
  maxTokens: { maxTokens?: number };
};

/** The composer: the core server, the catalog's tools, resources and prompts, and the package's features. */
export function createSpecServer(definition: ServerDefinition, options: SpecServerOptions = {}): McpServer {
  const selection: ToolSelection = {
    ...(options.toolsets ? { toolsets: options.toolsets } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  };
  const leftOut = new Map<string, CatalogTool>();
  // The same error as for a name that does not exist (so clients treat it alike), saying why.
  const unknownTool = (name: string) => {
    const tool = leftOut.get(name);
    return tool && `Unknown tool: ${name}: it ${notEnabledReason(selection, tool)}`;
  };
  const server = createServer({
    ...options.serverOptions,
    ...definition.server,
    ...(filters(selection) ? { unknownToolMessage: (name: string) => unknownTool(name) } : {}),
    ...(options.accessGate ? { toolGate: options.accessGate(definition.catalog) } : {}),
  });
  const rt: SpecRuntime = {
    definition,
    options,
    server,
    selection,
    leftOut,
    shadowed: new Set(),
    upstream: upstreamOf(definition, options),
    fitResult: resultFitter(options.features ?? []),
    maxTokens: options.maxResponseTokens === undefined ? {} : { maxTokens: options.maxResponseTokens },
  };
  server.defer(() => {
    const catalog = definition.catalog();
    const served = new Map<string, CatalogTool>();
    for (const tool of catalog.tools) {
      if (selects(selection, tool)) served.set(tool.name, tool);
      else leftOut.set(tool.name, tool);
    }
    registerMode(rt, catalog, served);
    registerTools(rt, served);
    registerResources(rt, catalog);
    registerPrompts(rt, catalog);
  }, definition.offers);
  return server;
}

/** The upstream as the spec states it, with --base-url, --max-upstream-body and --max-redirects applied. */
function upstreamOf(definition: ServerDefinition, options: SpecServerOptions): UpstreamConfig | undefined {
  return (
    definition.upstream && {
      ...definition.upstream,
      // --base-url replaces the whole server URL, OpenAPI server variables included.
      ...(options.baseUrl ? { baseUrl: options.baseUrl, baseUrlTemplate: undefined, pinned: true } : {}),
      ...(options.maxUpstreamBody !== undefined ? { maxBodyChars: options.maxUpstreamBody } : {}),
      ...(options.maxRedirects !== undefined ? { maxRedirects: options.maxRedirects } : {}),
    }
  );
}

/** One upstream request for a binding, with the caller's credentials and nothing else of its context. */
async function forward(
  rt: SpecRuntime,
  binding: HttpBinding,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  target: string,
) {
  const { upstream, definition, options } = rt;
  if (!upstream) throw new McpError(ErrorCode.InternalError, "This server has http bindings but no upstream base URL");
  if (!definition.callUpstream)
    throw new McpError(ErrorCode.InternalError, "This server has http bindings but no callUpstream");
  // Only what resolveCredentials makes of the caller goes on: the forwarding never sees ctx, and the
  // caller's MCP token is forbidden anywhere in the request (the spec forbids token passthrough).
  (ctx as SpecContext).server = rt.server;
  const credentials = await resolveCredentials(ctx as SpecContext, options.credentials, options.exchangeToken);
  const idHeader = upstream.requestIdHeader;
  const started = performance.now();
  try {
    const response = await definition.callUpstream(upstream, binding, args, ctx.signal, options.env ?? process.env, {
      ...(credentials ? { credentials } : {}),
      forbidden: ctx.auth ? [ctx.auth.token] : [],
      ...(idHeader && ctx.httpRequestId ? { extraHeaders: { [idHeader]: ctx.httpRequestId } } : {}),
    });
    observeUpstream(target, response.status, (performance.now() - started) / 1000);
    return response;
  } catch (error) {
    observeUpstream(target, "error", (performance.now() - started) / 1000);
    throw error;
  }
}

/** The user's handler for a catalog entry, given the server in its context. */
function handlerFor(rt: SpecRuntime, table: keyof SpecHandlers, key: string) {
  const handler = ownValue(rt.options.handlers?.[table] as Record<string, unknown> | undefined, key) as
    | ((...args: unknown[]) => never)
    | undefined;
  if (!handler) throw new Error(`no handler registered for ${table} '${key}'`);
  // The context is always the last argument; handlers get it with the server added (SpecContext). Added in
  // place (the context is made per request, for this handler alone): a copy would read `ctx.signal` and
  // so make the AbortController the runtime only makes for handlers that use it.
  return (...args: unknown[]) => {
    (args[args.length - 1] as SpecContext).server = rt.server;
    return handler(...args);
  };
}

/** A serving mode (a feature: the package passes its code in, the core imports none of it). */
function registerMode(rt: SpecRuntime, catalog: Catalog, served: Map<string, CatalogTool>): void {
  const { options } = rt;
  if (!options.mode || options.mode === "all") return;
  const mode = modeFeature(options.features ?? [], options.mode);
  if (!mode)
    throw new Error(`--mode ${options.mode} needs the ${options.mode} feature, which this package does not have`);
  for (const { name } of mode.tools) if (served.delete(name)) rt.shadowed.add(name);
  const notEnabled = (name: string) => {
    if (rt.shadowed.has(name))
      return `The API's own tool '${name}' is hidden by ${options.mode} mode's tool of that name; run the server with --mode all to call it`;
    const tool = rt.leftOut.get(name);
    return tool && `The tool '${name}' ${notEnabledReason(rt.selection, tool)}`;
  };
  const { fitResult, maxTokens } = rt;
  mode.register(
    rt.server,
    { all: catalog.tools, served, toolsets: catalog.toolsets ?? [], notEnabled },
    {
      ...(options.codeLimits ? { limits: options.codeLimits } : {}),
      allowDestructive: options.allowDestructive === true,
      ...(options.codeConcurrency !== undefined ? { concurrency: options.codeConcurrency } : {}),
      ...(fitResult
        ? { fitResult: (result: ToolHandlerResult) => fitResult(result, { kind: "handler", ...maxTokens }) }
        : {}),
    },
  );
}

/** The served tools: forwarding upstream, or the user's handlers; unlisted while a mode lists its own. */
function registerTools(rt: SpecRuntime, served: Map<string, CatalogTool>): void {
  const { options, fitResult, maxTokens } = rt;
  const validatorTable = typeof options.validators === "function" ? options.validators() : options.validators;
  const unlisted = options.mode === "dynamic" || options.mode === "code";
  for (const { http, toolset: _toolset, scopes: _scopes, ...tool } of served.values()) {
    const validators = ownValue(validatorTable, tool.name);
    rt.server.tool({
      ...tool,
      ...(unlisted ? { unlisted: true } : {}),
      ...(validators ? { validateInput: validators.input } : {}),
      ...(validators?.output ? { validateOutput: validators.output } : {}),
      handler: http
        ? (args, ctx) => upstreamTool(rt, { ...tool, http }, validators?.output, args, ctx)
        : fitResult
          ? budgeted(handlerFor(rt, "tools", tool.name), (result) =>
              fitResult(result, { kind: "handler", ...maxTokens }),
            )
          : handlerFor(rt, "tools", tool.name),
    });
  }
}

/** A tool bound to the upstream: the request, the answer checked, `_fields` selected, the features' fit. */
async function upstreamTool(
  rt: SpecRuntime,
  tool: CatalogTool & { http: HttpBinding },
  validateOutput: Validator | undefined,
  args: Record<string, unknown>,
  ctx: HandlerContext,
): Promise<ToolHandlerResult> {
  const { http } = tool;
  try {
    // `_fields` is this server's argument: split off before the request is built.
    const { args: sent, fields } = http.fields ? takeFields(args) : { args };
    const answer = toolAnswerFrom(await forward(rt, http, sent, ctx, tool.name));
    const result = checkedAgainstOutput(answer.result, validateOutput);
    const selected = selectAnswer({ ...answer, result }, fields, validateOutput);
    const fitted = rt.fitResult
      ? await rt.fitResult(selected.result, {
          kind: "upstream",
          ...rt.maxTokens,
          answer: { json: selected.json, ...(answer.link ? { link: answer.link } : {}) },
          call: {
            inputSchema: tool.inputSchema,
            args: sent,
            offersFields: http.fields === true,
            ...(validateOutput ? { validateOutput } : {}),
          },
        })
      : selected.result;
    return selected.note ? withNote(fitted, selected.note) : fitted;
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: (error as Error).message }] };
  }
}

/** Static resources serve themselves; bound ones forward; the rest call handlers. */
function registerResources(rt: SpecRuntime, catalog: Catalog): void {
  for (const { http, text, blob, ...resource } of catalog.resources) {
    const contents = { uri: resource.uri, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) };
    rt.server.resource({
      ...resource,
      read:
        text !== undefined
          ? () => ({ contents: [{ ...contents, text }] })
          : blob !== undefined
            ? () => ({ contents: [{ ...contents, blob }] })
            : http
              ? async (uri, ctx) =>
                  resourceContentsFrom(uri, resource.mimeType, await forward(rt, http, {}, ctx, "resource"))
              : handlerFor(rt, "resources", resource.uri),
    });
  }
  for (const { http, completions, ...template } of catalog.resourceTemplates) {
    rt.server.resourceTemplate({
      ...template,
      ...completers(completions),
      read: http
        ? async (uri, variables, ctx) =>
            resourceContentsFrom(uri, template.mimeType, await forward(rt, http, variables, ctx, "resource"))
        : handlerFor(rt, "resourceTemplates", template.uriTemplate),
    });
  }
}

/** Prompts with messages in the spec fill them in; the rest call handlers. */
function registerPrompts(rt: SpecRuntime, catalog: Catalog): void {
  for (const { messages, completions, ...prompt } of catalog.prompts) {
    rt.server.prompt({
      ...prompt,
      ...completers(completions),
      get: messages
        ? (args) => ({
            ...(prompt.description ? { description: prompt.description } : {}),
            messages: messages.map((message) => ({ role: message.role, content: fillContent(message.content, args) })),
          })
        : handlerFor(rt, "prompts", prompt.name),
    });
  }
}

/** A tool handler whose result the features shape (the response budget: Feature.fitResult). */
function budgeted(
  handler: (...args: unknown[]) => unknown,
  fitResult: (result: ToolHandlerResult) => ReturnType<ResultFitter>,
) {
  return async (...args: unknown[]): Promise<ToolHandlerResult> => {
    const result = (await handler(...args)) as ToolHandlerResult;
    // An input_required result (MRTR) asks the client something: it is no answer to cut.
    return result.resultType === "input_required" ? result : fitResult(result);
  };
}

/** A result with one more text block after its content. */
const withNote = (result: ToolHandlerResult, text: string): ToolHandlerResult => ({
  ...result,
  content: [...(result.content ?? []), { type: "text", text }],
});

/** Static value lists as completion functions: the values that start with what was typed, case-insensitively. */
function completers(completions: StaticCompletions | undefined): { complete?: Record<string, CompleteFunction> } {
  if (!completions) return {};
  const complete: Record<string, CompleteFunction> = {};
  for (const [name, values] of Object.entries(completions)) {
    setOwn(complete, name, (typed: string) =>
      values.filter((value) => value.toLowerCase().startsWith(typed.toLowerCase())),
    );
  }
  return { complete };
}

/**
 * An upstream answer that breaks the tool's outputSchema (real APIs drift from their documents) is an
 * error result that still carries the answer as text, so the model sees the data and the mismatch,
 * instead of a bare "output does not match" error with the data gone.
 */
function checkedAgainstOutput(result: ToolHandlerResult, validate: Validator | undefined): ToolHandlerResult {
  if (!validate || result.isError || result.structuredContent === undefined || validate(result.structuredContent)) {
    return result;
  }
  const problems = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`)
    .join("; ");
  const note = `The upstream API's answer does not match this tool's outputSchema (${problems}); the answer follows.`;
  return { isError: true, content: [{ type: "text", text: note }, ...(result.content ?? [])] };
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Fills `{{argument}}` placeholders; a missing optional argument becomes an empty string. */
function fillContent(content: ContentBlock, args: Record<string, string>): ContentBlock {
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (_, name: string) => (Object.hasOwn(args, name) ? args[name] : ""));
  if (content.type === "text") return { ...content, text: fill(content.text) };
  if (content.type === "resource" && "text" in content.resource) {
    return { ...content, resource: { ...content.resource, text: fill(content.resource.text) } };
  }
  return content;
}
