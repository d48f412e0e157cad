// The server built from a generated definition, catalog, precompiled validators and the user's handlers: http
// bindings forward upstream, static resources and prompt templates serve themselves, the rest call handlers.
import { readFileSync } from "node:fs";
import { ownValue } from "../protocol/codec.ts";
import { ErrorCode } from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type { ContentBlock, GetPromptResult, Validator } from "../protocol/types.ts";
import { describeErrors, showsTool } from "../server/features.ts";
import { observeUpstream } from "../server/log.ts";
import { InputRequiredSignal } from "../server/mrtr.ts";
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
import type { CallUpstream, UpstreamCall as Signed, UpstreamConfig, UpstreamResponse } from "../upstream/types.ts";
import type {
  Catalog,
  CatalogTool,
  ServerDefinition as DefinitionData,
  HttpBinding,
  StaticCompletions,
  StoredCatalog,
} from "./catalog-types.ts";
import {
  type Feature,
  type FeatureServerOptions,
  type JobTool,
  type ResultFitter,
  resultFitter,
  type UpstreamAccess,
} from "./feature.ts";
import { OUTPUT_MISMATCH_META, selectAnswer, takeFields } from "./field-select.ts";
import { didYouMean, notEnabledReason, selects, type ToolSelection } from "./tool-selection.ts";

/** src/definition.ts; `callUpstream` is passed in, not imported, so a package without an upstream carries none. */
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

// An intersection, not Omit: Omit over CallToolResult's index signature would drop its known fields.
export type ToolResult<Structured> = ToolHandlerResult & { structuredContent?: Structured };
/** The runtime's context plus the server (to register or remove entries at run time, or notify subscribers). */
export type SpecContext = HandlerContext & { server: McpServer };
type Answer<T> = T | Promise<T>;
export type ToolHandler<Args, Structured> = (args: Args, ctx: SpecContext) => Answer<ToolResult<Structured>>;
export type ResourceHandler = (uri: string, ctx: SpecContext) => Answer<ResourceReadResult>;
export type TemplateHandler = (
  uri: string,
  vars: Record<string, string>,
  ctx: SpecContext,
) => Answer<ResourceReadResult>;
export type PromptHandler<Args> = (args: Args, ctx: SpecContext) => Answer<GetPromptResult>;

// Handlers arrive typed per entry from generated code; here they are only called, so `never` args accept any.
type SpecHandlers = Partial<
  Record<"tools" | "resources" | "resourceTemplates" | "prompts", Record<string, (...args: never[]) => unknown>>
>;

export type ToolValidators = Record<string, { input: Validator; output?: Validator }>;

export type SpecServerOptions = {
  handlers?: SpecHandlers;
  /** Precompiled validators by tool name, or a function making them (called when the catalog is read). */
  validators?: ToolValidators | (() => ToolValidators);
  baseUrl?: string; // --base-url, --max-upstream-body, --max-redirects: upstream/types.ts's UpstreamConfig
  maxUpstreamBody?: number;
  maxRedirects?: number;
  env?: NodeJS.ProcessEnv;
  serverOptions?: Omit<ServerOptions, "name" | "version">;
  toolsets?: readonly string[]; // --toolsets (undefined: all; names checked by spec-main.ts), --read-only, --mode
  readOnly?: boolean;
  mode?: "all" | "dynamic" | "code"; // tools/list gives every served tool (`all`), dynamic mode's five, or code's two
  features?: readonly Feature[];
  credentials?: CredentialsHook<SpecContext>; // src/credentials.ts: per-user upstream credentials, consulted first
} & FeatureServerOptions;

/** What a scaffolded tool handler returns (a resource or prompt handler throws the Error) until written. */
export function notImplemented(kind: string, name: string, file: string): ToolResult<never> {
  return { isError: true, content: [{ type: "text", text: notImplementedError(kind, name, file).message }] };
}

export function notImplementedError(kind: string, name: string, file: string): McpError {
  return new McpError(ErrorCode.InternalError, `The ${kind} '${name}' is not implemented yet: edit ${file}.`);
}

type Args = Record<string, unknown>;
type AnyHandler = (...args: unknown[]) => never;

type SpecRuntime = {
  definition: ServerDefinition;
  options: SpecServerOptions;
  server: McpServer;
  /** `subject` plus why a catalog tool left out is not enabled (a call of one is told), or undefined. */
  leftOutMessage: (name: string, subject: string) => string | undefined;
  upstream: UpstreamConfig | undefined;
  fitResult: ResultFitter | undefined; // the response budget's; without it, results pass as they are
  fitHandlerResult: ((result: ToolHandlerResult) => Promise<ToolHandlerResult>) | undefined;
};

export function createSpecServer(definition: ServerDefinition, options: SpecServerOptions = {}): McpServer {
  const selection: ToolSelection = { toolsets: options.toolsets, readOnly: options.readOnly };
  const leftOut = new Map<string, CatalogTool>(); // filled when the catalog is read
  const leftOutMessage = (name: string, subject: string) => {
    const tool = leftOut.get(name);
    return tool && `${subject} ${notEnabledReason(selection, tool)}`;
  };
  // The same error as for a name that does not exist (so clients treat it alike), saying why, or the close
  // names among the tools this caller may see (as call_tool and execute do).
  const unknownTool = (name: string, shown: (name: string) => boolean, subject = `Unknown tool: ${name}: it`) =>
    leftOutMessage(name, subject) ??
    renamedMessage(definition, name, subject, shown) ??
    `Unknown tool: ${name}${didYouMean(name, [...server.tools.keys()].filter(shown))}`;
  const server: McpServer = createServer({
    ...options.serverOptions,
    ...definition.server,
    unknownToolMessage: (name, auth) => unknownTool(name, (tool) => showsTool(server, tool, auth)),
    ...(options.accessGate ? { toolGate: options.accessGate(definition.catalog) } : {}),
  });
  options.jobs?.serve(server);
  const fitResult = resultFitter(options.features ?? []);
  const rt: SpecRuntime = {
    definition,
    options,
    server,
    leftOutMessage,
    upstream: definition.upstream && {
      ...definition.upstream,
      // --base-url replaces the whole server URL, OpenAPI server variables included.
      ...(options.baseUrl ? { baseUrl: options.baseUrl, baseUrlTemplate: undefined, pinned: true } : {}),
      ...(options.maxUpstreamBody !== undefined ? { maxBodyChars: options.maxUpstreamBody } : {}),
      ...(options.maxRedirects !== undefined ? { maxRedirects: options.maxRedirects } : {}),
    },
    fitResult,
    fitHandlerResult:
      fitResult && ((result) => fitResult(result, { kind: "handler", maxTokens: options.maxResponseTokens })),
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
  for (const feature of options.features ?? []) feature.serve?.(server, definition.catalog);
  return server;
}

async function forward(rt: SpecRuntime, binding: HttpBinding, args: Args, ctx: HandlerContext, target: string) {
  const signed = await signedAs(rt, ctx, binding);
  const response = await send(rt, binding, args, ctx.signal, signed, target);
  // A user's own token the API refused (401): renewed, or forgotten to ask again, and tried once more.
  if (response.status !== 401 || !(await rt.options.userToken?.rejected?.(ctx, signed))) return response;
  return send(rt, binding, args, ctx.signal, await signedAs(rt, ctx, binding), target);
}

/** What a request carries of its caller. Only what resolveCredentials makes of the caller goes on: the forwarding
 * never sees ctx, and the caller's MCP token is forbidden anywhere in the request (no token passthrough). */
async function signedAs(rt: SpecRuntime, ctx: HandlerContext, binding: HttpBinding): Promise<Signed> {
  const { options, upstream } = rt;
  (ctx as SpecContext).server = rt.server;
  const { userToken } = options;
  const own =
    upstream && userToken
      ? { source: userToken.source, bearer: () => userToken.bearer(ctx, upstream, binding) }
      : undefined;
  const credentials = await resolveCredentials(ctx as SpecContext, options.credentials, own);
  const idHeader = rt.upstream?.requestIdHeader;
  return {
    ...(credentials ? { credentials } : {}),
    forbidden: ctx.auth ? [ctx.auth.token] : [],
    ...(idHeader && ctx.httpRequestId ? { extraHeaders: { [idHeader]: ctx.httpRequestId } } : {}),
  };
}

async function send(rt: SpecRuntime, http: HttpBinding, args: Args, signal: AbortSignal, call: Signed, tool: string) {
  const { upstream, definition, options } = rt;
  if (!upstream || !definition.callUpstream)
    throw new McpError(ErrorCode.InternalError, "This server has http bindings but no upstream (or no callUpstream)");
  const started = performance.now();
  let status: number | "error" = "error";
  try {
    const { callUpstream } = definition;
    const run = (headers?: Record<string, string>) =>
      callUpstream(upstream, http, args, signal, options.env ?? process.env, {
        ...call,
        ...(headers && { extraHeaders: { ...call.extraHeaders, ...headers } }),
      });
    const response = await (options.instrument?.upstream({ target: tool, binding: http, upstream, call }, run) ??
      run());
    status = response.status;
    return response;
  } finally {
    observeUpstream(tool, status, (performance.now() - started) / 1000);
  }
}

function handlerFor(rt: SpecRuntime, table: keyof SpecHandlers, key: string) {
  const handler = ownValue(rt.options.handlers?.[table] as Record<string, AnyHandler> | undefined, key);
  if (!handler) throw new Error(`no handler registered for ${table} '${key}'`);
  const fitResult = table === "tools" ? rt.fitHandlerResult : undefined;
  // The context (the last argument) gets the server in place: a copy would read `ctx.signal` and so make the
  // AbortController the runtime only makes for handlers that use it.
  return (...args: unknown[]) => {
    (args[args.length - 1] as SpecContext).server = rt.server;
    if (!fitResult) return handler(...args);
    // An input_required result (MRTR) asks the client something: it is no answer to cut.
    return (async () => {
      const result: ToolHandlerResult = await handler(...args);
      return result.resultType === "input_required" || result.resultType === "task" ? result : fitResult(result);
    })() as never;
  };
}

function registerMode(rt: SpecRuntime, catalog: Catalog, served: Map<string, CatalogTool>): void {
  const { options } = rt;
  if (!options.mode || options.mode === "all") return;
  const mode = options.features?.find((feature) => feature.mode?.name === options.mode)?.mode;
  if (!mode)
    throw new Error(`--mode ${options.mode} needs the ${options.mode} feature, which this package does not have`);
  // Catalog tools named like one of the mode's own: the mode's tool takes the name.
  const shadowed = new Set(mode.tools.map(({ name }) => name).filter((name) => served.delete(name)));
  const notEnabled = (name: string, shown: (name: string) => boolean) =>
    shadowed.has(name)
      ? `The API's own tool '${name}' is hidden by ${options.mode} mode's tool of that name; run the server with --mode all to call it`
      : (rt.leftOutMessage(name, `The tool '${name}'`) ??
        renamedMessage(rt.definition, name, `The tool '${name}'`, shown));
  mode.register(
    rt.server,
    { all: catalog.tools, served, toolsets: catalog.toolsets ?? [], notEnabled },
    { ...options, fitResult: rt.fitHandlerResult },
  );
}

/** The served tools: forwarding upstream, or the user's handlers; unlisted while a mode lists its own. */
function registerTools(rt: SpecRuntime, served: Map<string, CatalogTool>): void {
  const { options } = rt;
  const validatorTable = typeof options.validators === "function" ? options.validators() : options.validators;
  const unlisted = options.mode === "dynamic" || options.mode === "code";
  for (const { http, toolset: _toolset, scopes: _scopes, ...tool } of served.values()) {
    const validators = ownValue(validatorTable, tool.name);
    const bound = http && { ...tool, http };
    const jobs = bound?.http.task && options.jobs;
    rt.server.tool({
      ...tool,
      ...(unlisted ? { unlisted: true } : {}),
      ...(validators ? { validateInput: validators.input } : {}),
      ...(validators?.output ? { validateOutput: validators.output } : {}),
      ...(jobs ? jobs.toolFields : {}),
      handler: bound
        ? jobs
          ? jobs.handler(bound as JobTool, upstreamAccess(rt, bound, validators?.output))
          : upstreamTool(rt, bound, validators?.output)
        : handlerFor(rt, "tools", tool.name),
    });
  }
}

/** `subject` plus the current name of a former tool name (`renamedFrom`), when the caller may see that tool. */
function renamedMessage(definition: ServerDefinition, name: string, subject: string, shown: (name: string) => boolean) {
  const to = ownValue(definition.renamed, name);
  return to && shown(to) ? `${subject} was renamed to ${to}` : undefined;
}

/** What the tasks feature's job tools use of the forwarding (feature.ts UpstreamAccess). */
function upstreamAccess(rt: SpecRuntime, tool: BoundTool, validateOutput: Validator | undefined): UpstreamAccess {
  return {
    signedAs: (ctx) => signedAs(rt, ctx, tool.http),
    send: (signed, args, signal, how = {}) => send(rt, tool.http, args, signal, { ...signed, ...how }, tool.name),
    answer: answerOf(rt, tool, validateOutput),
    baseUrl: () => (tool.http.baseUrl && !rt.upstream?.pinned ? tool.http.baseUrl : (rt.upstream?.baseUrl ?? "")),
  };
}

type BoundTool = CatalogTool & { http: HttpBinding };

/** A tool bound to the upstream: the request, and its answer made a result. */
function upstreamTool(rt: SpecRuntime, tool: BoundTool, validateOutput: Validator | undefined) {
  const answer = answerOf(rt, tool, validateOutput);
  return async (args: Args, ctx: HandlerContext): Promise<ToolHandlerResult> => {
    try {
      // `_fields` is this server's argument: split off before the request is built.
      const sent = tool.http.fields ? takeFields(args).args : args;
      return await answer(await forward(rt, tool.http, sent, ctx, tool.name), args);
    } catch (error) {
      if (error instanceof McpError || error instanceof InputRequiredSignal) throw error; // -32042, input_required
      return { isError: true, content: [{ type: "text", text: (error as Error).message }] };
    }
  };
}

/** An upstream answer as the tool's result: checked against its outputSchema, `_fields` selected, the features' fit. */
function answerOf(rt: SpecRuntime, tool: BoundTool, validateOutput: Validator | undefined) {
  return async (response: UpstreamResponse, args: Args): Promise<ToolHandlerResult> => {
    const { http } = tool;
    const { args: sent, fields } = http.fields ? takeFields(args) : { args };
    const answer = toolAnswerFrom(response);
    const result = checkedAgainstOutput(answer.result, validateOutput);
    const selected = selectAnswer({ ...answer, result }, fields, validateOutput);
    const fitted = rt.fitResult
      ? await rt.fitResult(selected.result, {
          kind: "upstream",
          maxTokens: rt.options.maxResponseTokens,
          answer: { json: selected.json, link: answer.link },
          call: { inputSchema: tool.inputSchema, args: sent, offersFields: http.fields === true, validateOutput },
        })
      : selected.result;
    const note = selected.note && { type: "text" as const, text: selected.note };
    return note ? { ...fitted, content: [...(fitted.content ?? []), note] } : fitted;
  };
}

function registerResources(rt: SpecRuntime, catalog: Catalog): void {
  for (const { http, text, blob, ...resource } of catalog.resources) {
    const contents = { uri: resource.uri, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) };
    const fixed = text !== undefined ? { text } : blob !== undefined ? { blob } : undefined;
    rt.server.resource({
      ...resource,
      read: fixed
        ? () => ({ contents: [{ ...contents, ...fixed }] })
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

/** Static value lists as completion functions: the values that start with what was typed, case-insensitively. */
function completers(completions: StaticCompletions | undefined): { complete?: Record<string, CompleteFunction> } {
  const matching = (values: string[]) => (typed: string) =>
    values.filter((value) => value.toLowerCase().startsWith(typed.toLowerCase()));
  if (!completions) return {};
  // Object.fromEntries defines own properties: a variable named `__proto__` stays data.
  return { complete: Object.fromEntries(Object.entries(completions).map(([k, v]) => [k, matching(v)])) };
}

// An answer breaking the outputSchema (APIs drift from their documents) is an error result carrying the answer as
// text after a short note; not a success, as clients check structuredContent against the schema, formats included.
function checkedAgainstOutput(result: ToolHandlerResult, validate: Validator | undefined): ToolHandlerResult {
  if (!validate || result.isError || result.structuredContent === undefined || validate(result.structuredContent))
    return result;
  const problems = describeErrors(validate.errors);
  const note = `The upstream API's answer does not match this tool's outputSchema (${problems}); the answer follows.`;
  const content: ContentBlock[] = [{ type: "text", text: note }, ...(result.content ?? [])];
  return { isError: true, content, _meta: { ...result._meta, [OUTPUT_MISMATCH_META]: problems } };
}

/** Fills `{{argument}}` placeholders; a missing optional argument becomes an empty string. */
function fillContent(content: ContentBlock, args: Record<string, string>): ContentBlock {
  const fill = (text: string) =>
    text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, name: string) => (Object.hasOwn(args, name) ? args[name] : ""));
  if (content.type === "text") return { ...content, text: fill(content.text) };
  if (content.type === "resource" && "text" in content.resource)
    return { ...content, resource: { ...content.resource, text: fill(content.resource.text) } };
  return content;
}
