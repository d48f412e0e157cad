// tools/call, resources/read, prompts/get and completion/complete: argument checks, handlers, MRTR, results.
import { isObject, ownValue, protoKeyPointer } from "../protocol/codec.ts";
import { ErrorCode } from "../protocol/constants.ts";
import { errorMessage, invalidParams, McpError, ResourceNotFoundError } from "../protocol/errors.ts";
import type { CallToolResult, Completion, JsonObject, Result, ValidatorError } from "../protocol/types.ts";
import { MAX_TEMPLATE_URI_LENGTH } from "../protocol/uri-template-match.ts";
import type { AuthPrincipal } from "./auth-principal.ts";
import { InputRequiredSignal, inputRequiredResult } from "./mrtr.ts";
import type { MethodCall, RequestScope, ServerCore } from "./scope.ts";
import type { CompleteFunction, HandlerContext, ToolDefinition, ToolHandlerResult } from "./types.ts";

const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;
const MAX_COMPLETION_VALUES = 100;
/** A `__proto__` key is refused in any client arguments: a handler copying them could replace a prototype,
 * and ajv skips a property of that name, so no schema could check it. */
const PROTO_REFUSED = (pointer: string) => `${pointer}: a property named __proto__ is not accepted`;

/** Not async (a wrapper promise and its microtask ticks per call); an unknown tool is a rejection all the same. */
export function callTool(call: MethodCall, forwarded = false): Promise<Result> {
  const { server, params, ctx } = call;
  const tool = typeof params.name === "string" ? server.tools.get(params.name) : undefined;
  return tool ? runTool(server, tool, params.arguments ?? {}, ctx, call, forwarded) : unknownTool(call);
}

async function unknownTool({ server, params, ctx }: MethodCall): Promise<never> {
  if (typeof params.name !== "string") throw invalidParams("tools/call: name must be a string");
  throw invalidParams(server.options.unknownToolMessage?.(params.name, ctx.auth) ?? `Unknown tool: ${params.name}`);
}

/** A direct tools/call (`call`: client inputs, a forward followed), or without `call` one in process (code mode's
 * features/code/call-in-process.ts). No object of closures per call: they were most of its garbage. */
export async function runTool(
  server: ServerCore,
  tool: ToolDefinition,
  args: unknown,
  ctx: HandlerContext,
  call?: MethodCall,
  forwarded = false,
) {
  // The HTTP transport 403s a direct call first; this covers forwards, calls in process and other transports.
  const refusal = server.options.toolGate?.toolRefusal(tool.name, ctx.auth);
  if (refusal) return toolError(refusal);
  if (!isObject(args)) return toolError(`Invalid arguments for tool ${tool.name}: arguments must be an object`);
  const protoKey = protoKeyPointer(args);
  if (protoKey) return toolError(`Invalid arguments for tool ${tool.name}: ${PROTO_REFUSED(protoKey)}`);
  const validateInput = server.validatorFor(tool.inputSchema, tool.validateInput);
  if (validateInput && !validateInput(args))
    return toolError(`Invalid arguments for tool ${tool.name}: ${describeErrors(validateInput.errors)}`);
  let result: CallToolResult;
  try {
    const output = await (call ? withInputs(call, () => tool.handler(args, ctx)) : tool.handler(args, ctx));
    // Input asked of the client (MRTR), or a task handle (the tasks feature): no tool result to check.
    if (output.resultType === "input_required" || output.resultType === "task") return output;
    const forward = (output as { [FORWARD]?: ToolForward })[FORWARD];
    if (forward && !call)
      return toolError(`Tool ${tool.name} forwards to another tool and cannot be called in process`);
    if (forward) return await forwardedCall(call as MethodCall, tool.name, forward, forwarded);
    result = { ...output, content: Array.isArray(output.content) ? output.content : [] } as CallToolResult;
  } catch (error) {
    // An unanswered input (2026 era) of a call in process goes on to the calling request.
    const aborted = call ? call.abort.aborted : ctx.signal.aborted;
    if (error instanceof McpError || error instanceof InputRequiredSignal || aborted) throw error;
    // A failing tool is a tool-level error the model can see, not a protocol error.
    return toolError(`Tool ${tool.name} failed: ${errorMessage(error)}`);
  }
  if (result.isError) return result;
  if (tool.outputSchema) {
    if (result.structuredContent === undefined)
      return toolError(`Tool ${tool.name} declares an outputSchema but returned no structuredContent`);
    const validateOutput = server.validatorFor(tool.outputSchema, tool.validateOutput);
    if (validateOutput && !validateOutput(result.structuredContent))
      return toolError(
        `Tool ${tool.name} returned output not matching its outputSchema: ${describeErrors(validateOutput.errors)}`,
      );
  }
  if (result.structuredContent !== undefined && result.content.length === 0) {
    // Clients that ignore structuredContent still see the data (backwards-compatibility advice in the tools spec).
    result.content = [{ type: "text", text: JSON.stringify(result.structuredContent) }];
  }
  return result;
}

/** Runs a forward's target as a direct tools/call within the same request, adding the forward's `_meta`. */
async function forwardedCall(call: MethodCall, via: string, forward: ToolForward, forwarded: boolean): Promise<Result> {
  // One hop: a tool forwarding to a forwarding tool could loop.
  if (forwarded) return toolError(`Tool ${via} cannot forward a call that was itself forwarded`);
  const params = { name: forward.name, arguments: forward.arguments } as MethodCall["params"];
  const run = () => callTool({ ...call, params }, true);
  const result = await (call.server.options.traceForward?.(forward.name, run) ?? run());
  return forward.meta ? { ...result, _meta: { ...(result._meta as object | undefined), ...forward.meta } } : result;
}

export function showsTool(server: ServerCore, name: string, auth: AuthPrincipal | undefined): boolean {
  return server.options.toolGate?.showsTool(name, auth) ?? true;
}

/** The scopes reading `uri` needs: its resource's, else those of the first template matching it (as read does). */
export function resourceScopes(server: ServerCore, uri: string): readonly string[] | undefined {
  const resource = server.resources.get(uri);
  if (resource) return resource.scopes;
  for (const { definition, matcher } of server.templates.values()) if (matcher.match(uri)) return definition.scopes;
  return undefined;
}

/** Refuses a caller whose token lacks what `required` names (the HTTP transport answers 403 before this). */
export function checkResourceScopes(
  server: ServerCore,
  required: readonly string[] | undefined,
  uri: string,
  auth?: AuthPrincipal,
) {
  const refusal = server.options.toolGate?.resourceRefusal(required, uri, auth);
  if (refusal) throw new McpError(ErrorCode.InvalidRequest, refusal);
}

export async function readResource(call: MethodCall): Promise<Result> {
  const { server, params, ctx, scope } = call;
  if (typeof params.uri !== "string") throw invalidParams("resources/read: uri must be a string");
  const uri = params.uri;
  try {
    const resource = server.resources.get(uri);
    if (resource) {
      checkResourceScopes(server, resource.scopes, uri, ctx.auth);
      return await withInputs(call, () => resource.read(uri, ctx));
    }
    for (const { definition, matcher } of server.templates.values()) {
      const variables = matcher.match(uri);
      if (!variables) continue;
      checkResourceScopes(server, definition.scopes, uri, ctx.auth);
      return await withInputs(call, () => definition.read(uri, variables, ctx));
    }
  } catch (error) {
    // A handler's notFound(uri) answers with the code of this request's era, whichever it was made for.
    throw error instanceof ResourceNotFoundError ? notFoundIn(scope, error.uri, error.message) : error;
  }
  const why =
    uri.length > MAX_TEMPLATE_URI_LENGTH && server.templates.size > 0
      ? ` (a URI longer than ${MAX_TEMPLATE_URI_LENGTH} characters matches no resource template)`
      : "";
  throw notFoundIn(scope, uri, `Resource not found: ${uri}${why}`);
}

// 2026 moved "resource not found" from -32002 to -32602 (changelog, minor change 6).
const notFoundIn = (scope: RequestScope, uri: string, message: string) =>
  new ResourceNotFoundError(uri, scope.revision.era, message);

export async function getPrompt(call: MethodCall): Promise<Result> {
  const { server, params, ctx } = call;
  if (typeof params.name !== "string") throw invalidParams("prompts/get: name must be a string");
  const prompt = server.prompts.get(params.name);
  if (!prompt) throw invalidParams(`Unknown prompt: ${params.name}`);
  const args = params.arguments ?? {};
  if (!isObject(args)) throw invalidParams("prompts/get: arguments must be an object");
  const protoKey = protoKeyPointer(args);
  if (protoKey) throw invalidParams(`Invalid arguments for prompt ${prompt.name}: ${PROTO_REFUSED(protoKey)}`);
  for (const [name, value] of Object.entries(args))
    if (typeof value !== "string") throw invalidParams(`Prompt argument ${name} must be a string`);
  const missing = (prompt.arguments ?? []).filter((a) => a.required && ownValue(args, a.name) === undefined);
  const names = missing.map((a) => a.name).join(", ");
  if (missing.length > 0) throw invalidParams(`Missing required arguments for prompt ${prompt.name}: ${names}`);
  return withInputs(call, () => prompt.get(args as Record<string, string>, ctx));
}

export async function complete({ server, params, ctx }: MethodCall): Promise<Result> {
  const { ref, argument } = params;
  const argumentName = isObject(argument) ? argument.name : undefined;
  const argumentValue = isObject(argument) ? argument.value : undefined;
  if (!isObject(ref) || typeof argumentName !== "string" || typeof argumentValue !== "string")
    throw invalidParams("completion/complete: ref and argument { name, value } are required");
  let completer: CompleteFunction | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = server.prompts.get(String(ref.name));
    if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
    completer = ownValue(prompt.complete, argumentName);
  } else if (ref.type === "ref/resource") {
    const template = server.templates.get(String(ref.uri));
    if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`);
    checkResourceScopes(server, template.definition.scopes, String(ref.uri), ctx.auth);
    completer = ownValue(template.definition.complete, argumentName);
  } else throw invalidParams(`Unknown completion reference type: ${ref.type}`);
  const contextArgs = isObject(params.context) && isObject(params.context.arguments) ? params.context.arguments : {};
  const protoKey = protoKeyPointer(contextArgs);
  if (protoKey) throw invalidParams(`completion/complete: context.arguments: ${PROTO_REFUSED(protoKey)}`);
  const answer = completer
    ? await completer(argumentValue, { arguments: contextArgs as Record<string, string>, ctx })
    : [];
  const completion: Completion = Array.isArray(answer) ? { values: answer } : { ...answer };
  if (completion.values.length > MAX_COMPLETION_VALUES) {
    completion.total ??= completion.values.length;
    completion.hasMore = true;
    completion.values = completion.values.slice(0, MAX_COMPLETION_VALUES);
  }
  return { completion };
}

/** Runs a handler that may ask for client input; in the 2026 revision an unanswered input becomes `input_required`. */
async function withInputs<T extends object>(call: MethodCall, run: () => T | Promise<T>): Promise<T | Result> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InputRequiredSignal)) throw error;
    const ttlMs = call.server.options.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    return inputRequiredResult(call.server.sealer, call.binding, call.answers, error.requests, ttlMs);
  }
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The first three problems, each cut to 120 characters (a pattern or enum can be long): short, whatever the data. */
export function describeErrors(errors: ValidatorError[] | null | undefined): string {
  if (!errors || errors.length === 0) return "does not match the schema";
  const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
  const shown = errors.slice(0, 3).map((e) => cut(`${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`));
  return `${shown.join("; ")}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ""}`;
}

// A tool that stands for another (dynamic mode's `call_tool`): its handler returns `forwardTo(...)` and
// callTool runs the named tool exactly as a direct tools/call, so the two can never answer differently.
const FORWARD = Symbol("tool-forward");

/** Where a forwarding handler sends the call, and `_meta` entries added to the named tool's result. */
export type ToolForward = { name: string; arguments: unknown; meta?: JsonObject };

/** The result a handler returns to have the server run another tool in its place (one hop only). */
export function forwardTo(forward: ToolForward): ToolHandlerResult {
  // No content of its own: were the mark ever lost, the result would be an empty success, not a leak.
  return Object.defineProperty({ content: [] }, FORWARD, { value: forward, enumerable: false });
}
