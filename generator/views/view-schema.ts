/**
 * The shape of a tool's answer as a view needs it (issue 31): an output schema read through `$ref`, `allOf` and
 * nullable unions to a list of objects (at the top, or under one property of an object) or an object, and
 * each property's label and format.
 */

import { labelFromKey } from "../../runtime/features/apps/view-config.ts";
import type { ViewField, ViewFormat } from "../../runtime/package/catalog-types.ts";
import type { JsonSchema } from "../ir.ts";
import { namedDefinition } from "../schema/named-definition.ts";

type Schema = JsonSchema;
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What an answer is: rows (`items`: the property holding them; absent: the answer) or one record. */
export type AnswerShape =
  | { kind: "list"; items?: string; item: ObjectSchema }
  | { kind: "record"; record: ObjectSchema }
  | { kind: "other" };

export type ObjectSchema = { properties: Array<[string, Schema]>; required: Set<string> };
const EMPTY: ObjectSchema = { properties: [], required: new Set() };

/** Reads `schema` within `root` (whose `$defs`/`definitions` its `$ref`s name) to what it says, one level deep. */
export function resolve(schema: unknown, root: Schema, depth = 0): Schema | undefined {
  if (!isSchema(schema) || depth > 32) return undefined;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    // A spec-language schema may be draft-07, whose definitions live under `definitions`.
    const [keyword, prefix] = ref.startsWith("#/definitions/")
      ? ["definitions", "#/definitions/"]
      : ["$defs", "#/$defs/"];
    const defs = root[keyword];
    return isSchema(defs) ? resolve(namedDefinition(ref, defs, prefix), root, depth + 1) : undefined;
  }
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) {
    // `T | null` (OpenAPI 3.1's nullable): the view shows T, and null as absent.
    const options = union.map((option) => resolve(option, root, depth + 1)).filter((o) => o && o.type !== "null");
    return options.length === 1 ? options[0] : schema;
  }
  if (Array.isArray(schema.allOf)) return merged(schema, root, depth);
  return schema;
}

function merged(schema: Schema, root: Schema, depth: number): Schema {
  const parts = [schema, ...(schema.allOf as unknown[]).map((part) => resolve(part, root, depth + 1))];
  const properties: Schema = {};
  const required: string[] = [];
  let type: unknown;
  for (const part of parts) {
    if (!part) continue;
    if (isSchema(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...part.required.map(String));
    type ??= part.type;
  }
  return { type: type ?? (Object.keys(properties).length ? "object" : undefined), properties, required };
}

const typeOf = (schema: Schema): string | undefined => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return typeof type === "string" ? type : isSchema(schema.properties) ? "object" : undefined;
};

function objectOf(schema: Schema | undefined, root: Schema): ObjectSchema | undefined {
  if (!schema || typeOf(schema) !== "object" || !isSchema(schema.properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  // A property's label is its own title: a $ref'd schema's title names the type ("Simple User"), not the field.
  const properties = Object.entries(schema.properties).map(([key, value]): [string, Schema] => [
    key,
    { ...resolve(value, root), title: isSchema(value) && !value.$ref ? value.title : undefined },
  ]);
  return properties.length > 0 ? { properties, required } : undefined;
}

function listItem(schema: Schema | undefined, root: Schema): ObjectSchema | undefined {
  return schema && typeOf(schema) === "array" ? objectOf(resolve(schema.items, root), root) : undefined;
}

/** The answer's shape from its schema (the outputSchema, or the list answer's resultSchema). */
export function answerShape(output: JsonSchema | undefined): AnswerShape {
  if (!output) return { kind: "other" };
  const top = resolve(output, output);
  const item = listItem(top, output);
  if (item) return { kind: "list", item };
  const record = objectOf(top, output);
  // A map (additionalProperties only): a card of whatever keys the answer has.
  if (!record) return top && typeOf(top) === "object" ? { kind: "record", record: EMPTY } : { kind: "other" };
  // A page of results ({items: [...], next}, {total_count, items}): one list of objects beside a few plain
  // values is what the answer is about; a record that merely has a list (an issue's labels) stays a record.
  const lists = record.properties.flatMap(([key, value]) => {
    const rows = listItem(value, output);
    return rows ? [{ key, rows }] : [];
  });
  // Plain: no object and no other list of objects (a list of strings, say, is a detail of the page).
  const plain = record.properties.every(([, value]) => typeOf(value) !== "object");
  if (lists.length === 1 && plain && record.properties.length <= MAX_PAGE_FIELDS)
    return { kind: "list", items: lists[0].key, item: lists[0].rows };
  return { kind: "record", record };
}

const URL_KEY = /(^|_)url$|Url$/;
const MAX_PAGE_FIELDS = 6;

export function formatOf(key: string, schema: Schema): ViewFormat {
  const type = typeOf(schema);
  if (type === "integer") return "integer";
  if (type === "number") return "number";
  if (type === "boolean") return "boolean";
  if (type === "array") return "list";
  if (type === "object") return "object";
  if (schema.format === "date" || schema.format === "date-time") return schema.format;
  if (schema.format === "uri" || schema.format === "url" || URL_KEY.test(key)) return "link";
  return "text";
}

/** The schema's own title, else the key in words ("created_at" → "Created at", "htmlUrl" → "Html url"). */
export function labelOf(key: string, schema: Schema): string {
  return typeof schema.title === "string" && schema.title.trim() ? schema.title.trim() : labelFromKey(key);
}

export const fieldOf = ([key, schema]: [string, Schema]): ViewField => ({
  key,
  label: labelOf(key, schema),
  format: formatOf(key, schema),
});
