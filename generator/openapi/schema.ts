/**
 * OpenAPI schemas into self-contained JSON Schema 2020-12, the dialect MCP tool schemas use.
 *
 * - OpenAPI 3.0 / Swagger 2.0 keywords: `nullable` (and `x-nullable`) become a `"null"` type, `example`
 *   becomes `examples`, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, Swagger's
 *   `type: file` becomes a binary string; `discriminator`, `xml` and `externalDocs` are dropped (the
 *   `oneOf`/`anyOf` they annotate are kept and already decide validity).
 * - Every `$ref` becomes `#/$defs/<name>`; the referenced schemas are converted once per tool and put in
 *   its `$defs`, so recursion stays a reference and never expands.
 * - Direction matters: a request omits `readOnly` properties, a response never requires `writeOnly` ones.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema } from "../ir.ts";
import { resolvePointer } from "./document.ts";

export type Direction = "request" | "response";
export type SchemaDialect = "3.0" | "3.1";

/**
 * Referenced schemas already converted, shared by every tool of one document: a conversion depends only
 * on the reference and the direction, and Stripe's tools reach the same few hundred components ~500
 * times each. Entries are shared between tools, so no later stage may change a schema in place.
 */
export class ConvertedDefs {
  readonly #byKey = new Map<string, { schema: JsonSchema; refs: string[] }>();
  /** Each converted schema object → the document's schema object it came from (diagnostics point there). */
  readonly origins = new WeakMap<object, object>();
  /**
   * Each converted definition → the document pointer of its schema: what is asked of the document once
   * the rules are done (a render failure's culprit), kept apart so the document itself can go (load.ts).
   */
  readonly definitionPointers = new WeakMap<object, string>();

  get(direction: Direction, ref: string) {
    return this.#byKey.get(`${direction} ${ref}`);
  }

  set(direction: Direction, ref: string, entry: { schema: JsonSchema; refs: string[] }): void {
    this.#byKey.set(`${direction} ${ref}`, entry);
  }
}

/** Builds one tool's schemas: converts on demand and collects the `$defs` they reach. */
export class SchemaScope {
  readonly #defs = new Map<string, JsonSchema>();
  readonly #names: DefNames;
  readonly #root: unknown;
  readonly #dialect: SchemaDialect;
  readonly #direction: Direction;
  readonly #converted: ConvertedDefs;
  /** The references met directly by each definition being converted, innermost last. */
  readonly #converting: Array<Set<string>> = [];

  constructor(root: unknown, names: DefNames, dialect: SchemaDialect, direction: Direction, converted: ConvertedDefs) {
    this.#root = root;
    this.#names = names;
    this.#dialect = dialect;
    this.#direction = direction;
    this.#converted = converted;
  }

  /** The `$defs` every converted schema so far refers to, sorted so output is stable. */
  get defs(): JsonSchema | undefined {
    if (this.#defs.size === 0) return undefined;
    return Object.fromEntries([...this.#defs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The schema a `$ref` chain ends at, converted, for callers that must look inside (the body, the output). */
  resolveRoot(schema: unknown): JsonSchema | undefined {
    let current = schema;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === "string"; hops++) {
      current = resolvePointer(this.#root, current.$ref);
    }
    return isObject(current) ? this.convert(current) : undefined;
  }

  /** Whether a schema (through refs and allOf) describes only JSON objects: what an MCP outputSchema must. */
  isObject(schema: unknown, depth = 0): boolean {
    let current = schema;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === "string"; hops++) {
      current = resolvePointer(this.#root, current.$ref);
    }
    if (!isObject(current) || depth > 16) return false;
    if (current.nullable === true || ["oneOf", "anyOf", "not"].some((k) => k in current)) return false;
    if (current.type !== undefined) return current.type === "object";
    const parts = Array.isArray(current.allOf) ? current.allOf : [];
    return isObject(current.properties) || (parts.length > 0 && parts.some((p) => this.isObject(p, depth + 1)));
  }

  convert(schema: unknown): JsonSchema {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isObject(schema)) return {};
    return this.#node(schema);
  }

  #ref(ref: string): string {
    this.#converting.at(-1)?.add(ref);
    this.#include(ref);
    return `#/$defs/${this.#names.nameOf(ref)}`;
  }

  /** Puts the definition `ref` names, and everything it reaches, into this scope's `$defs`. */
  #include(ref: string): void {
    const name = this.#names.nameOf(ref);
    if (this.#defs.has(name)) return;
    const known = this.#converted.get(this.#direction, ref);
    if (known) {
      this.#defs.set(name, known.schema);
      for (const next of known.refs) this.#include(next);
      return;
    }
    this.#defs.set(name, {}); // placeholder first: a recursive schema meets its own name here
    const target = resolvePointer(this.#root, ref);
    this.#converting.push(new Set());
    const schema = isObject(target) ? this.#node(target) : {};
    const refs = [...this.#converting.pop()!];
    this.#defs.set(name, schema);
    this.#converted.set(this.#direction, ref, { schema, refs });
    if (ref.startsWith("#/") && this.#converted.origins.get(schema) === target) {
      this.#converted.definitionPointers.set(schema, decodeURIComponent(ref.slice(1)));
    }
  }

  #node(schema: JsonSchema): JsonSchema {
    if (typeof schema.$ref === "string") {
      const ref = { $ref: this.#ref(schema.$ref) };
      // 3.0 ignores a $ref's siblings; 3.1 (JSON Schema 2020-12) applies them alongside.
      if (this.#dialect === "3.0") return nullableRef(schema, ref);
      const { $ref: _ref, ...rest } = schema;
      return Object.keys(rest).length === 0 ? ref : { ...this.#node(rest), ...ref };
    }
    const out: JsonSchema = {};
    let optional = new Set<string>();
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || (key.startsWith("x-") && key !== "x-mcp-header")) continue;
      if (key === "example" || key === "examples") {
        // Examples help a model fill arguments; in results they only add weight. Example data holding
        // a "$ref" key would be taken for a reference by schema tools, so such examples are dropped.
        const list = key === "example" ? [value] : value;
        if (this.#direction === "request" && Array.isArray(list) && !JSON.stringify(list).includes('"$ref"')) {
          if (key === "examples" || !Object.hasOwn(schema, "examples")) out.examples = list;
        }
      } else if (SUBSCHEMA.has(key)) out[key] = this.convert(value);
      else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map((s) => this.convert(s));
      else if (SUBSCHEMA_MAP.has(key) && isObject(value)) out[key] = this.#map(value);
      else if (key === "items") {
        out.items = Array.isArray(value) ? undefined : this.convert(value);
        if (Array.isArray(value)) out.prefixItems = value.map((s) => this.convert(s));
      } else if (key === "properties" && isObject(value)) optional = this.#properties(value, out);
      else if (key === "additionalProperties" || key === "unevaluatedProperties") {
        out[key] = typeof value === "boolean" ? value : this.convert(value);
      } else setOwn(out, key, value);
    }
    if (out.items === undefined) delete out.items;
    if (Array.isArray(out.required) && optional.size > 0) {
      out.required = out.required.filter((name) => !optional.has(String(name)));
      if ((out.required as unknown[]).length === 0) delete out.required;
    }
    if (out.type === "file") Object.assign(out, { type: "string", format: "binary" });
    exclusiveBounds(out);
    const nullable = schema.nullable === true || schema["x-nullable"] === true;
    const result = nullable && this.#dialect === "3.0" ? makeNullable(out) : out;
    this.#converted.origins.set(out, schema);
    this.#converted.origins.set(result, schema);
    return result;
  }

  #map(value: JsonSchema): JsonSchema {
    return Object.fromEntries(Object.entries(value).map(([k, s]) => [k, this.convert(s)]));
  }

  /** Converts `properties`; returns the names that must not stay in `required` for this direction. */
  #properties(properties: JsonSchema, out: JsonSchema): Set<string> {
    const kept: JsonSchema = {};
    const optional = new Set<string>();
    for (const [name, property] of Object.entries(properties)) {
      const flag = isObject(property) ? property : {};
      if (this.#direction === "request" && flag.readOnly === true) {
        optional.add(name);
        continue; // the server sets it; a request should not send it
      }
      if (this.#direction === "response" && flag.writeOnly === true) optional.add(name);
      setOwn(kept, name, this.convert(property));
    }
    out.properties = kept;
    return optional;
  }
}

/** Stable, unique `$defs` names for referenced schemas, shared by every tool of one document. */
export class DefNames {
  readonly #byRef = new Map<string, string>();
  readonly #taken = new Set<string>();

  nameOf(ref: string): string {
    const known = this.#byRef.get(ref);
    if (known) return known;
    const last = decodeURIComponent(ref.split("/").at(-1) ?? "")
      .replace(/~1/g, "/")
      .replace(/~0/g, "~");
    const base = last.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "schema";
    let name = base;
    for (let n = 2; this.#taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    this.#taken.add(name.toLowerCase());
    this.#byRef.set(ref, name);
    return name;
  }
}

const DROPPED = new Set(["discriminator", "xml", "externalDocs", "nullable", "$schema", "$id"]);
const SUBSCHEMA = new Set(["not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems"]);
const SUBSCHEMA_LIST = new Set(["allOf", "oneOf", "anyOf", "prefixItems"]);
const SUBSCHEMA_MAP = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"]);

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function makeNullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") {
    const out: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type))
    return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

function nullableRef(schema: JsonSchema, ref: JsonSchema): JsonSchema {
  return schema.nullable === true || schema["x-nullable"] === true ? { anyOf: [ref, { type: "null" }] } : ref;
}

/** OpenAPI 3.0 (draft 4) writes `exclusiveMinimum: true` beside `minimum`; 2020-12 wants the number. */
function exclusiveBounds(schema: JsonSchema): void {
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === "number") {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else if (typeof schema[flag] === "boolean") delete schema[flag];
  }
}
