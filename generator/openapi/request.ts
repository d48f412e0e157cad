/**
 * An operation's parameters and request body as one MCP `inputSchema`, plus the binding that tells the
 * runtime where each argument goes. Arguments are flattened into top-level properties when no two
 * share a name; otherwise they are grouped by location (`path`, `query`, `header`, `cookie`, `body`).
 */
import { ownValue, setOwn } from "../../runtime/protocol/codec.ts";
import type { HttpBodyNode, HttpParameterNode, JsonSchema } from "../ir.ts";
import { deref, isJson, type Json } from "./document.ts";
import type { SchemaScope } from "./schema.ts";

export type Parameter = Json & { name: string; in: HttpParameterNode["in"] };
/** `optionalBodyRequires`: the fields an optional request body requires when it is sent (none: absent). */
export type RequestShape = {
  inputSchema: JsonSchema;
  parameters: HttpParameterNode[];
  body?: HttpBodyNode;
  optionalBodyRequires?: string[];
};

const LOCATIONS = ["path", "query", "header", "cookie"] as const;
/** Preferred request media types, best first; anything else is sent as text. */
const BODY_TYPES = [
  /^application\/(.+\+)?json\b/i,
  /^application\/x-www-form-urlencoded\b/i,
  /^multipart\/form-data\b/i,
  /^text\//i,
];

/** Path-level and operation-level parameters, the operation's winning on (in, name); refs followed. */
export function mergedParameters(root: Json, shared: unknown, own: unknown): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...(Array.isArray(shared) ? shared : []), ...(Array.isArray(own) ? own : [])]) {
    const p = deref(root, raw);
    // OpenAPI: header parameters named Accept, Content-Type or Authorization "SHALL be ignored".
    const ignored = p?.in === "header" && /^(accept|content-type|authorization)$/i.test(String(p.name));
    if (p && !ignored && typeof p.name === "string" && LOCATIONS.includes(p.in as never))
      byKey.set(`${p.in}:${p.name}`, p as Parameter);
  }
  return [...byKey.values()];
}

export function requestShape(
  root: Json,
  parameters: Parameter[],
  requestBody: unknown,
  scope: SchemaScope,
  headers: Record<string, string>,
): RequestShape {
  const params = parameters.map((p) => ({ p, schema: parameterSchema(p, scope, ownValue(headers, p.name)) }));
  const body = bodyOf(root, requestBody, scope);

  const names = [...params.map(({ p }) => p.name), ...(body?.flat ? Object.keys(body.flat.properties) : ["body"])];
  const grouped = new Set(names).size !== names.length;
  const binding: HttpParameterNode[] = params.map(({ p }) => ({
    name: p.name,
    in: p.in,
    arg: grouped ? [p.in, p.name] : [p.name],
    ...(typeof p.style === "string" ? { style: p.style } : {}),
    ...(typeof p.explode === "boolean" ? { explode: p.explode } : {}),
    ...(p.allowReserved === true ? { allowReserved: true } : {}),
    ...(isJson(p.content) ? { json: true } : {}),
  }));

  if (!grouped) {
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const { p, schema } of params) {
      setOwn(properties, p.name, schema);
      if (p.required === true || p.in === "path") required.push(p.name);
    }
    let bodyBinding: HttpBodyNode | undefined;
    let inputSchema: JsonSchema;
    if (body?.flat) {
      assignOwn(properties, body.flat.properties);
      if (body.required) required.push(...body.flat.required);
      bodyBinding = { contentType: body.contentType, properties: Object.keys(body.flat.properties) };
      inputSchema = objectSchema(properties, required);
      // An optional body's own required fields, once any field of the body is sent (else lost with the nesting).
      if (!body.required && body.flat.required.length > 0)
        inputSchema.dependentRequired = dependentOn(Object.keys(body.flat.properties), body.flat.required);
    } else {
      if (body) {
        properties.body = body.schema;
        if (body.required) required.push("body");
        bodyBinding = { contentType: body.contentType, arg: "body" };
      }
      inputSchema = objectSchema(properties, required);
    }
    return {
      inputSchema,
      parameters: binding,
      ...(bodyBinding ? { body: bodyBinding } : {}),
      ...optionalBodyRequires(body),
    };
  }

  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const location of LOCATIONS) {
    const group = params.filter(({ p }) => p.in === location);
    if (group.length === 0) continue;
    const groupRequired = group.filter(({ p }) => p.required === true || location === "path").map(({ p }) => p.name);
    properties[location] = objectSchema(
      Object.fromEntries(group.map(({ p, schema }) => [p.name, schema])),
      groupRequired,
    );
    if (groupRequired.length > 0) required.push(location);
  }
  if (body) {
    properties.body = body.schema;
    if (body.required) required.push("body");
  }
  return {
    inputSchema: objectSchema(properties, required),
    parameters: binding,
    ...(body ? { body: { contentType: body.contentType, arg: "body" } } : {}),
    ...optionalBodyRequires(body),
  };
}

/** `dependentRequired` saying: any of `fields` sent, every one of `required` must be too. */
function dependentOn(fields: string[], required: string[]): JsonSchema {
  const dependent: JsonSchema = {};
  for (const field of fields) {
    const others = required.filter((name) => name !== field);
    if (others.length > 0) setOwn(dependent, field, others);
  }
  return dependent;
}

/** The fields an optional body requires: what the document likely meant as a required body (reported). */
function optionalBodyRequires(body: Body | undefined): Pick<RequestShape, "optionalBodyRequires"> {
  if (!body || body.required) return {};
  return body.requires.length > 0 ? { optionalBodyRequires: body.requires } : {};
}

function objectSchema(properties: JsonSchema, required: string[]): JsonSchema {
  return { type: "object", properties, ...(required.length > 0 ? { required: [...new Set(required)] } : {}) };
}

function parameterSchema(p: Parameter, scope: SchemaScope, configHeader: string | undefined): JsonSchema {
  const raw = isJson(p.schema)
    ? p.schema
    : isJson(p.content)
      ? (Object.values(p.content).find(isJson)?.schema ?? {})
      : {};
  const header = typeof p["x-mcp-header"] === "string" ? p["x-mcp-header"] : configHeader;
  // A mirrored header needs its type on the property itself (the x-mcp-header rules), so inline the ref.
  const schema = header !== undefined ? { ...(scope.resolveRoot(raw) ?? {}) } : scope.convert(raw);
  if (header !== undefined) schema["x-mcp-header"] = header;
  else if (p["x-mcp-header"] !== undefined) schema["x-mcp-header"] = p["x-mcp-header"];
  if (typeof p.description === "string" && schema.description === undefined) schema.description = p.description;
  if (p.deprecated === true) schema.deprecated = true;
  return schema;
}

type Body = {
  contentType: string;
  required: boolean;
  schema: JsonSchema;
  /** What the body's schema (its $ref followed) requires. */
  requires: string[];
  flat?: { properties: JsonSchema; required: string[] };
};

function bodyOf(root: Json, requestBody: unknown, scope: SchemaScope): Body | undefined {
  const body = deref(root, requestBody);
  if (!body || !isJson(body.content)) return undefined;
  const types = Object.keys(body.content);
  const contentType = BODY_TYPES.map((re) => types.find((t) => re.test(t))).find(Boolean) ?? types[0];
  if (!contentType) return undefined;
  const media = body.content[contentType];
  const raw = isJson(media) && media.schema !== undefined ? media.schema : {};
  const schema = scope.convert(raw);
  if (typeof body.description === "string" && schema.description === undefined) schema.description = body.description;
  const resolved = scope.resolveRoot(raw);
  const flattenable =
    resolved &&
    isJson(resolved.properties) &&
    (resolved.type === "object" || resolved.type === undefined) &&
    !["allOf", "oneOf", "anyOf", "not", "if", "$ref", "patternProperties"].some((k) => k in resolved) &&
    (resolved.additionalProperties === undefined || resolved.additionalProperties === false);
  const requires = Array.isArray(resolved?.required) ? resolved.required.map(String) : [];
  return {
    contentType,
    required: body.required === true,
    schema,
    requires,
    ...(flattenable ? { flat: { properties: resolved.properties as JsonSchema, required: requires } } : {}),
  };
}

/** Copies every own enumerable key of `source` onto `target` as data (Object.assign would run `__proto__`'s setter). */
function assignOwn<T>(target: { [key: string]: T }, source: { readonly [key: string]: T }): void {
  for (const [key, value] of Object.entries(source)) setOwn(target, key, value);
}
