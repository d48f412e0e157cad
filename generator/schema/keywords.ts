/**
 * Which JSON Schema keywords hold subschemas, and how: what every schema walk (walk.ts, visiting) and
 * map (map-children.ts, copying) agrees on, so a property *named* "items" or an `enum` value shaped like
 * a schema is never taken for one.
 */

/** An object of subschemas by name. (draft-07's `dependencies` mixes schemas and name lists: callers decide.) */
export const NAMED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** One subschema. */
export const SINGLE_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "items",
  "contentSchema",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);

/** A list of subschemas (`items` as a list is draft-07's tuple form). */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
