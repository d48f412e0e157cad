/**
 * Field selection (issue 14 §4): an http tool whose answer is JSON takes an optional `_fields` argument,
 * the dotted paths of the fields to return (runtime/package/field-select.ts applies it; it is never sent
 * upstream). Declared here, in the normalize stage, so the validators, the generated types and the docs
 * all see it.
 *
 * Which tools: every http-bound tool, except an OpenAPI operation whose 2xx responses declare no JSON
 * media type (an image, plain text, a 204). The spec language does not say what the upstream answers, so
 * its http tools all take it; on a non-JSON answer the runtime ignores it and says so. A tool that already
 * has a real argument named `_fields` keeps it, and gets no field selection.
 *
 * Partial answers (fields selected, or a list cut to the response budget) are still structuredContent,
 * so the outputSchema such a tool serves allows them: nothing is required, no minimum counts, `oneOf`
 * becomes `anyOf` (two branches told apart by a required field both match a partial object), and the
 * keywords a missing field or item can break (`not`, `if`/`then`/`else`, `contains`, dependencies,
 * `const`/`enum` of objects) are left out. Types, formats, patterns and `additionalProperties` stay: a
 * partial answer is the same shape, shorter. The runtime checks the whole upstream answer against this
 * schema before selecting or cutting, and the official SDK client accepts every partial answer.
 */
import { FIELDS_ARGUMENT } from "../../runtime/package/field-select.ts";
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema, ToolNode } from "../ir.ts";

/** Every tool pays for this text in tokens on every tools/list: it stays short. */
const FIELDS_SCHEMA: JsonSchema = {
  type: "array",
  items: { type: "string" },
  description: 'Only these fields, e.g. ["id","user.login"]',
};

/** The tool with `_fields` declared and a partial-answer outputSchema, when it is an http tool answering JSON. */
export function withFieldsArgument(node: ToolNode): ToolNode {
  if (!node.http || node.http.answersJson === false) return node;
  const properties = node.inputSchema.properties;
  const props = properties !== null && typeof properties === "object" ? (properties as JsonSchema) : {};
  const own = Object.hasOwn(props, FIELDS_ARGUMENT);
  const inputProperties: JsonSchema = { ...props };
  if (!own) setOwn(inputProperties, FIELDS_ARGUMENT, FIELDS_SCHEMA);
  return {
    ...node,
    inputSchema: own ? node.inputSchema : { ...node.inputSchema, properties: inputProperties },
    ...(node.outputSchema ? { outputSchema: partialSchema(node.outputSchema) } : {}),
    ...(node.resultSchema ? { resultSchema: partialSchema(node.resultSchema) } : {}),
    http: own ? node.http : { ...node.http, fields: true },
  };
}

/** Keywords a partial answer may break: left out. */
const DROPPED = new Set([
  "required",
  "minItems",
  "minProperties",
  "minContains",
  "contains",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "not",
  "if",
  "then",
  "else",
]);
/** Keywords holding one schema. */
const ONE = ["additionalProperties", "items", "unevaluatedItems", "unevaluatedProperties", "propertyNames"];
/** Keywords holding a list of schemas (`items` as a list: draft-07 tuples). */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords holding schemas by name. */
const MAP = ["properties", "patternProperties", "$defs", "definitions"];

// Shared definitions are shared objects: each is relaxed once, and stays shared (tool-schemas.ts hashes them).
const relaxed = new WeakMap<object, unknown>();

/** The schema with every keyword a partial answer may break left out (see the top of this file). */
export function partialSchema<S>(schema: S): S {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const done = relaxed.get(schema);
  if (done) return done as S;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (DROPPED.has(key)) continue;
    if ((key === "const" || key === "enum") && containsObject(value, key === "enum")) continue;
    const name = key === "oneOf" ? "anyOf" : key;
    if (LIST.includes(key) && Array.isArray(value)) setOwn(out, name, value.map(partialSchema));
    else if (ONE.includes(key)) setOwn(out, name, partialSchema(value));
    else if (MAP.includes(key) && value !== null && typeof value === "object") {
      const map: JsonSchema = {};
      for (const [entry, sub] of Object.entries(value)) setOwn(map, entry, partialSchema(sub));
      setOwn(out, name, map);
    } else setOwn(out, name, value);
  }
  // oneOf beside anyOf: both must hold, so the two lists join under allOf.
  if (Array.isArray((schema as JsonSchema).oneOf) && Array.isArray((schema as JsonSchema).anyOf)) {
    const { anyOf: _, ...rest } = out;
    const joined = {
      ...rest,
      allOf: [
        ...((out.allOf as unknown[]) ?? []),
        { anyOf: ((schema as JsonSchema).anyOf as unknown[]).map(partialSchema) },
        { anyOf: ((schema as JsonSchema).oneOf as unknown[]).map(partialSchema) },
      ],
    };
    relaxed.set(schema, joined);
    return joined as S;
  }
  relaxed.set(schema, out);
  return out as S;
}

/** Whether a `const` value (or any `enum` value) is an object or array: a partial one would not equal it. */
function containsObject(value: unknown, isList: boolean): boolean {
  const values = isList && Array.isArray(value) ? value : [value];
  return values.some((v) => v !== null && typeof v === "object");
}
