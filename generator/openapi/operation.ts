/**
 * One OpenAPI operation as one MCP tool (or, with `x-mcp: { resourceTemplate: ... }` on a GET, a
 * resource template): description, annotations from the method, inputSchema + binding from
 * request.ts, outputSchema from the 2xx JSON response when it is an object.
 */
import { ownValue } from "../../runtime/protocol/codec.ts";
import type { Report } from "../diagnostics/diagnostic.ts";
import type { JsonSchema, ResourceTemplateNode, SourceLoc, ToolAnnotations, ToolNode } from "../ir.ts";
import { operationToolset } from "../normalize/toolset-names.ts";
import { deref, isJson, type Json } from "./document.ts";
import type { MappingConfig } from "./options.ts";
import { type Parameter, requestShape } from "./request.ts";
import { type ConvertedDefs, type DefNames, type SchemaDialect, SchemaScope } from "./schema.ts";
import { operationScopes, scopesField } from "./security.ts";
import type { OperationRef } from "./task-detect.ts";
import { operationTask } from "./task-extension.ts";

export type OperationInput = {
  root: Json;
  op: Json;
  method: string;
  path: string;
  parameters: Parameter[];
  name: string;
  loc: SourceLoc;
  security?: string[][];
  /** The operation's (or its path's) own absolute server URL, when it has one. */
  baseUrl?: string;
  uriScheme: string;
};
export type MapContext = {
  dialect: SchemaDialect;
  names: DefNames;
  converted: ConvertedDefs;
  config: MappingConfig;
  report: Report;
  /** A pointer's source location (task bindings carry where they were found). */
  loc: (pointer: string) => SourceLoc;
  /** Every operation of the document: the lookups of a task binding (task-detect.ts). */
  operations: () => readonly OperationRef[];
};

/**
 * Annotations from the HTTP method (docs/openapi.md#mapping-rules); x-mcp and the config override them. A hint
 * is claimed only where the method makes it true by definition (RFC 9110: GET/HEAD/OPTIONS are safe, PUT
 * and DELETE idempotent): anything else gets MCP's default for a tool that writes, destructive and not
 * idempotent, since clients (and code mode) skip confirmation for `destructiveHint: false`. A POST that
 * is harmless says so in `x-mcp.annotations` or the config.
 */
export function methodAnnotations(method: string): ToolAnnotations {
  switch (method.toUpperCase()) {
    case "GET":
    case "HEAD":
    case "OPTIONS":
      return { readOnlyHint: true, openWorldHint: true };
    case "DELETE":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case "PUT":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case "PATCH":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    default:
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

export function toolFrom(input: OperationInput, ctx: MapContext): ToolNode {
  const { root, op, method } = input;
  const ext = isJson(op["x-mcp"]) ? op["x-mcp"] : {};
  const operationId = typeof op.operationId === "string" ? op.operationId : undefined;
  const requestScope = new SchemaScope(root, ctx.names, ctx.dialect, "request", ctx.converted);
  const shape = requestShape(
    root,
    input.parameters,
    op.requestBody,
    requestScope,
    ownValue(ctx.config.headers, operationId ?? "") ?? {},
  );
  const inputSchema = withDefs(shape.inputSchema, requestScope.defs);
  if (shape.optionalBodyRequires) reportOptionalBody(shape.optionalBodyRequires, input.loc.pointer, ctx);
  const responseScope = new SchemaScope(root, ctx.names, ctx.dialect, "response", ctx.converted);
  const task = operationTask({ op, method, path: input.path, pointer: input.loc.pointer }, { ...ctx, root });
  // A task's start answer (a 202 body) is not what the task ends with: only x-mcp-task's resultSchema says that.
  const response = task ? taskResponse(task.resultSchema, responseScope) : responseOf(root, op, responseScope);
  const outputSchema = boundedOutput(response.outputSchema, input.loc.pointer, ctx);
  // Over the cap it is left out silently: it only types code mode's declarations (`Promise<unknown>` then).
  const resultSchema =
    response.resultSchema && jsonLength(response.resultSchema) <= ctx.config.maxOutputSchemaBytes
      ? response.resultSchema
      : undefined;
  const summary = typeof op.summary === "string" ? op.summary.trim() : "";
  const description = describe(op, ext, input.loc.pointer, ctx);
  const annotations: ToolAnnotations = {
    ...(summary && summary.length <= 100 ? { title: summary } : {}),
    ...methodAnnotations(method),
    ...(isJson(ext.annotations) ? (ext.annotations as ToolAnnotations) : {}),
    ...(operationId ? ownValue(ctx.config.annotations, operationId) : {}),
  };
  return {
    kind: "tool",
    loc: input.loc,
    name: input.name,
    ...(summary && summary.length <= 100 ? { title: summary } : {}),
    ...(description ? { description } : {}),
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(resultSchema ? { resultSchema } : {}),
    annotations,
    toolset: operationToolset(Array.isArray(op.tags) ? op.tags.map(String) : [], input.path),
    ...scopesField(operationScopes(op, root)),
    ...(typeof op["x-mcp-renamed-from"] === "string" ? { renamedFrom: op["x-mcp-renamed-from"] } : {}),
    ...(op["x-mcp-ui"] !== undefined
      ? {
          ui: {
            kind: "ui" as const,
            loc: { ...input.loc, pointer: `${input.loc.pointer}/x-mcp-ui` },
            value: op["x-mcp-ui"],
          },
        }
      : {}),
    http: {
      kind: "httpBinding",
      loc: input.loc,
      method: method.toUpperCase(),
      path: input.path,
      parameters: shape.parameters,
      ...(shape.body ? { body: shape.body } : {}),
      ...(input.security ? { security: input.security } : {}),
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
      ...answersJson(root, op),
      ...(task ? { task: task.task } : {}),
    },
  };
}

/** A GET served as a resource template: `<scheme>://<path>` with the path parameters as variables. */
export function templateFrom(input: OperationInput, ctx: MapContext): ResourceTemplateNode {
  const ext = isJson(input.op["x-mcp"]) ? input.op["x-mcp"] : {};
  const options = isJson(ext.resourceTemplate) ? ext.resourceTemplate : {};
  const pathParams = input.parameters.filter((p) => p.in === "path");
  const description = describe(input.op, ext, input.loc.pointer, ctx);
  const uriTemplate =
    typeof options.uriTemplate === "string"
      ? options.uriTemplate
      : `${input.uriScheme}://${input.path.replace(/^\/+/, "")}`;
  return {
    kind: "resourceTemplate",
    loc: input.loc,
    uriTemplate,
    name: typeof options.name === "string" ? options.name : input.name,
    ...(description ? { description } : {}),
    mimeType: typeof options.mimeType === "string" ? options.mimeType : "application/json",
    // The operation's scopes, exactly as its tool would need them: a template is no way around them.
    ...scopesField(operationScopes(input.op, input.root)),
    http: {
      kind: "httpBinding",
      loc: input.loc,
      method: "GET",
      path: input.path,
      parameters: pathParams.map((p) => ({ name: p.name, in: "path", arg: [p.name] })),
      ...(input.security ? { security: input.security } : {}),
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
    },
  };
}

/**
 * Leaves out an outputSchema over the size cap. Some APIs' responses reference most of their object
 * graph (each of Stripe's is ~600 KB with its $defs): every tools/list would carry megabytes, and every
 * stage after this one would pay for it. Without an outputSchema the answer still arrives as text (and
 * as structuredContent when it is a JSON object), just unchecked.
 */
function boundedOutput(schema: JsonSchema | undefined, pointer: string, ctx: MapContext): JsonSchema | undefined {
  if (!schema) return undefined;
  const bytes = jsonLength(schema);
  if (bytes <= ctx.config.maxOutputSchemaBytes) return schema;
  ctx.report(
    "OPENAPI_OUTPUT_SCHEMA_DROPPED",
    `${pointer}/responses`,
    `the response schema of ${pointer
      .split("/")
      .slice(-2)
      .map((p) => p.replaceAll("~1", "/"))
      .reverse()
      .join(
        " ",
      )} is ${Math.round(bytes / 1024)} KiB with its definitions; the tool gets no outputSchema (limit ${Math.round(ctx.config.maxOutputSchemaBytes / 1024)} KiB)`,
  );
  return undefined;
}

/** Definitions are shared between tools (ConvertedDefs), so each one's JSON length is measured once. */
const definitionLengths = new WeakMap<object, number>();

/** JSON.stringify(schema).length, exactly, without serializing the shared `$defs` again for every tool. */
export function jsonLength(schema: JsonSchema): number {
  const { $defs, ...rest } = schema;
  if (!$defs || typeof $defs !== "object") return JSON.stringify(schema).length;
  const entries = Object.entries($defs);
  let length = JSON.stringify(rest).length + '"$defs":{}'.length + (Object.keys(rest).length > 0 ? 1 : 0);
  for (const [name, def] of entries) {
    let own = definitionLengths.get(def as object);
    if (own === undefined) {
      own = JSON.stringify(def).length;
      definitionLengths.set(def as object, own);
    }
    length += JSON.stringify(name).length + 1 + own;
  }
  return length + Math.max(0, entries.length - 1);
}

function describe(op: Json, ext: Json, pointer: string, ctx: MapContext): string {
  if (typeof ext.description === "string") return ext.description;
  const summary = typeof op.summary === "string" ? op.summary.trim() : "";
  const detail = typeof op.description === "string" ? op.description.trim() : "";
  const full = [summary, detail && detail !== summary ? detail : ""].filter(Boolean).join("\n\n");
  const cap = ctx.config.maxDescriptionLength;
  if (full.length <= cap) return full;
  ctx.report(
    "OPENAPI_DESCRIPTION_CUT",
    `${pointer}/${op.description ? "description" : "summary"}`,
    `the description of ${String(op.operationId ?? pointer)} is ${full.length} characters; cut to ${cap}`,
  );
  const cut = full.slice(0, cap - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > cap * 0.8 ? cut.slice(0, space) : cut}…`;
}

function withDefs(schema: JsonSchema, defs: JsonSchema | undefined): JsonSchema {
  return defs ? { ...schema, $defs: defs } : schema;
}

const JSON_TYPE = /^application\/(.+\+)?json\b/i;

/** Whether a 2xx response is JSON (decides `_fields`, normalize/fields-argument.ts); absent with no 2xx declared. */
function answersJson(root: Json, op: Json): { answersJson?: boolean } {
  const responses = isJson(op.responses) ? op.responses : {};
  const codes = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code));
  if (codes.length === 0) return {};
  return {
    answersJson: codes.some((code) => {
      const content = deref(root, responses[code])?.content;
      return isJson(content) && Object.keys(content).some((type) => JSON_TYPE.test(type));
    }),
  };
}

/** A task tool's schemas: x-mcp-task's resultSchema, converted as a response schema is; none without one. */
function taskResponse(schema: unknown, scope: SchemaScope): { outputSchema?: JsonSchema; resultSchema?: JsonSchema } {
  if (schema === undefined) return {};
  const resolved = scope.resolveRoot(schema);
  if (!resolved) return {};
  if (scope.isObject(schema)) return { outputSchema: withDefs({ ...resolved, type: "object" }, scope.defs) };
  return resolved.type === "array" ? { resultSchema: withDefs(resolved, scope.defs) } : {};
}

/**
 * The first 2xx JSON response's schema: the outputSchema when its root is an object, the resultSchema
 * when it is a list (which only types the answer for code mode), else nothing.
 */
function responseOf(
  root: Json,
  op: Json,
  scope: SchemaScope,
): { outputSchema?: JsonSchema; resultSchema?: JsonSchema } {
  const responses = isJson(op.responses) ? op.responses : {};
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const response = deref(root, responses[code]);
    if (!response || !isJson(response.content)) continue;
    const type = Object.keys(response.content).find((t) => JSON_TYPE.test(t));
    if (!type) continue;
    const media = response.content[type];
    if (!isJson(media) || media.schema === undefined) return {};
    const resolved = scope.resolveRoot(media.schema);
    if (!resolved) return {};
    if (scope.isObject(media.schema)) return { outputSchema: withDefs({ ...resolved, type: "object" }, scope.defs) };
    // Only a list: code mode's bridge hands the code a JSON list as parsed, but a JSON string or number
    // as its text, which such a type would misdescribe.
    return resolved.type === "array" ? { resultSchema: withDefs(resolved, scope.defs) } : {};
  }
  return {};
}

/** An optional request body with required fields: usually a body the API always needs, not marked so. */
function reportOptionalBody(required: string[], pointer: string, ctx: MapContext): void {
  const fields = required.slice(0, 5).join(", ") + (required.length > 5 ? `, ... (${required.length} in all)` : "");
  ctx.report(
    "OPENAPI_OPTIONAL_BODY_REQUIRED_FIELDS",
    `${pointer}/requestBody`,
    `the request body is optional (requestBody.required is not true) but its schema requires ${fields}: the tool asks for ${required.length === 1 ? "it" : "them"} only once a body field is sent`,
  );
}
