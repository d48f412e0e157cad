/**
 * JSON Schema dialects mcpgen accepts in inputSchema/outputSchema: 2020-12 (MCP's default) and draft-07
 * (still common in hand-written and converted schemas). One ajv instance per dialect, created on first use.
 */
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats, OWN_PROPERTIES } from "./ajv.ts";

export type Dialect = "2020-12" | "draft-07";

const DIALECTS: Record<string, Dialect> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "http://json-schema.org/draft-07/schema": "draft-07",
};

/** The dialect a schema declares through `$schema` (2020-12 when absent), or the unknown URI it names. */
export function dialectOf(schema: { [key: string]: unknown }): Dialect | { unknown: string } {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  const uri = String(declared).replace(/#$/, "");
  return (
    DIALECTS[uri] ??
    DIALECTS[uri.replace(/^https:/, "http:")] ??
    DIALECTS[uri.replace(/^http:/, "https:")] ?? { unknown: String(declared) }
  );
}

const instances = new Map<Dialect, AnyAjv>();

/**
 * An ajv for checking user schemas. Not strict: JSON Schema says unknown keywords (x-mcp-header,
 * OpenAPI leftovers) are ignored, and a spec may use formats ajv-formats does not know.
 */
export function ajvFor(dialect: Dialect): AnyAjv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    const options = {
      ...OWN_PROPERTIES,
      allErrors: true,
      strict: false,
      logger: false,
      validateFormats: true,
    } as const;
    ajv = dialect === "2020-12" ? new Ajv2020(options) : new AjvDraft07(options);
    addFormats(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** Every keyword of a dialect's vocabularies (core, applicator, validation, meta-data, format, content). */
const DRAFT_07_KEYWORDS = [
  "$schema",
  "$id",
  "$ref",
  "$comment",
  "definitions",
  "title",
  "description",
  "default",
  "readOnly",
  "writeOnly",
  "examples",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "additionalItems",
  "items",
  "maxItems",
  "minItems",
  "uniqueItems",
  "contains",
  "maxProperties",
  "minProperties",
  "required",
  "additionalProperties",
  "properties",
  "patternProperties",
  "dependencies",
  "propertyNames",
  "const",
  "enum",
  "type",
  "format",
  "contentMediaType",
  "contentEncoding",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
];
const DRAFT_2020_12_KEYWORDS = [
  ...DRAFT_07_KEYWORDS.filter((k) => k !== "additionalItems"),
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$defs",
  "prefixItems",
  "dependentSchemas",
  "dependentRequired",
  "unevaluatedItems",
  "unevaluatedProperties",
  "maxContains",
  "minContains",
  "deprecated",
  "contentSchema",
];

export function vocabulary(dialect: Dialect): readonly string[] {
  return dialect === "2020-12" ? DRAFT_2020_12_KEYWORDS : DRAFT_07_KEYWORDS;
}
