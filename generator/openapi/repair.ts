/**
 * Repairs of vendor documents: mcpgen is strict where the user wrote the spec and forgiving where a
 * vendor did. Each defect a safe repair handles is fixed in place, before mapping, and reported once at
 * the document's own pointer (a warning, and a line of the generated README), instead of once per tool
 * that reaches the schema, or a refusal:
 * - a `pattern` (or `patternProperties` key) invalid under the `u` flag: needless escapes written plainly
 *   (repair-pattern.ts), else the keyword dropped;
 * - a `type` outside JSON Schema's seven: a well-known mistake mapped (`int` → integer, `file` → a
 *   binary string), anything else dropped.
 * Schemas are found by where OpenAPI puts them, so example data and extensions are never touched.
 */
import type { Code } from "../diagnostics/catalog.ts";
import { isJson, type Json, token } from "./document.ts";
import { checkPattern } from "./repair-pattern.ts";

export type Repair = { code: Code; pointer: string; message: string };

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Type names from other languages that say plainly what was meant: [type, format]. */
const MISTAKES: Record<string, [string, string?]> = {
  int: ["integer"],
  int32: ["integer", "int32"],
  int64: ["integer", "int64"],
  long: ["integer", "int64"],
  short: ["integer"],
  float: ["number", "float"],
  double: ["number", "double"],
  decimal: ["number"],
  numeric: ["number"],
  bool: ["boolean"],
  str: ["string"],
  text: ["string"],
  date: ["string", "date"],
  datetime: ["string", "date-time"],
  "date-time": ["string", "date-time"],
  uuid: ["string", "uuid"],
  file: ["string", "binary"],
  binary: ["string", "binary"],
  dict: ["object"],
  map: ["object"],
  list: ["array"],
};

const SUBSCHEMA = ["not", "if", "then", "else", "contains", "propertyNames", "additionalProperties"];
const SUBSCHEMA_MORE = ["unevaluatedItems", "unevaluatedProperties", "additionalItems"];
const SUBSCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keys whose values are data or vendor extensions, never schemas to repair. */
const DATA = new Set(["example", "examples", "default", "enum", "const", "securitySchemes", "securityDefinitions"]);

/** Repairs `document` in place; `swagger` allows Swagger 2.0's own `type: file`. */
export function repairDocument(document: Json, swagger: boolean): Repair[] {
  const repairs: Repair[] = [];
  const seen = new Set<object>();
  const schema = (node: unknown, pointer: string): void => {
    if (!isJson(node) || seen.has(node)) return;
    seen.add(node);
    repairType(node, pointer, swagger, repairs);
    repairPatterns(node, pointer, repairs);
    for (const key of [...SUBSCHEMA, ...SUBSCHEMA_MORE]) schema(node[key], `${pointer}/${key}`);
    for (const key of [...SUBSCHEMA_LIST, "items"]) {
      const list = node[key];
      if (Array.isArray(list)) for (const [i, member] of list.entries()) schema(member, `${pointer}/${key}/${i}`);
      else if (key === "items") schema(list, `${pointer}/items`);
    }
    for (const key of SUBSCHEMA_MAP) {
      const map = node[key];
      if (isJson(map))
        for (const [name, member] of Object.entries(map)) schema(member, `${pointer}/${key}/${token(name)}`);
    }
  };
  // Everything else: find the schemas inside operations, parameters, responses, components.
  const stack: Array<[unknown, string, boolean]> = [[document, "", false]];
  while (stack.length > 0) {
    const [node, pointer, isHeader] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((member, i) => {
        stack.push([member, `${pointer}/${i}`, false]);
      });
      continue;
    }
    if (!isJson(node) || seen.has(node)) continue;
    // Swagger 2.0 parameters and headers other than a body carry their schema keywords themselves.
    if (swagger && ((typeof node.in === "string" && !("schema" in node)) || (isHeader && "type" in node))) {
      schema(node, pointer);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key) || key.startsWith("x-")) continue;
      const at = `${pointer}/${token(key)}`;
      if (key === "schema") schema(value, at);
      else if ((key === "schemas" && pointer === "/components") || (key === "definitions" && pointer === "")) {
        if (isJson(value)) for (const [name, member] of Object.entries(value)) schema(member, `${at}/${token(name)}`);
      } else if (key === "headers" && isJson(value)) {
        for (const [name, header] of Object.entries(value)) stack.push([header, `${at}/${token(name)}`, true]);
      } else if (typeof value === "object" && value !== null) stack.push([value, at, false]);
    }
  }
  return repairs;
}

function repairType(node: Json, pointer: string, swagger: boolean, repairs: Repair[]): void {
  if (!("type" in node)) return;
  const at = `${pointer}/type`;
  const value = node.type;
  if (typeof value === "string") {
    if (TYPES.has(value) || (swagger && value === "file")) return;
    const mapped =
      MISTAKES[value.toLowerCase()] ?? (TYPES.has(value.toLowerCase()) ? [value.toLowerCase()] : undefined);
    if (mapped) {
      node.type = mapped[0];
      if (mapped[1] && node.format === undefined) node.format = mapped[1];
      const format = mapped[1] && node.format === mapped[1] ? ` (format ${mapped[1]})` : "";
      repairs.push({
        code: "OPENAPI_TYPE_REPAIRED",
        pointer: at,
        message: `type ${JSON.stringify(value)} read as "${mapped[0]}"${format}`,
      });
      return;
    }
  } else if (Array.isArray(value)) {
    const kept = value.filter((t): t is string => typeof t === "string" && TYPES.has(t));
    if (kept.length === value.length) return;
    if (kept.length > 0) {
      node.type = kept;
      repairs.push({
        code: "OPENAPI_TYPE_REPAIRED",
        pointer: at,
        message: `type ${short(value)} kept as ${short(kept)}`,
      });
      return;
    }
  }
  delete node.type;
  repairs.push({
    code: "OPENAPI_TYPE_REPAIRED",
    pointer: at,
    message: `type ${short(value)} is none of JSON Schema's seven types; the keyword is dropped (any type accepted)`,
  });
}

function repairPatterns(node: Json, pointer: string, repairs: Repair[]): void {
  if ("pattern" in node && typeof node.pattern !== "string") {
    const message = `pattern ${short(node.pattern)} is not a string; it is dropped (values are not checked against it)`;
    repairs.push({ code: "OPENAPI_PATTERN_DROPPED", pointer: `${pointer}/pattern`, message });
    delete node.pattern;
  } else if (typeof node.pattern === "string") {
    const verdict = checkPattern(node.pattern);
    const at = `${pointer}/pattern`;
    if (verdict.kind === "repaired") {
      repairs.push({
        code: "OPENAPI_PATTERN_REPAIRED",
        pointer: at,
        message: rewritten(node.pattern, verdict.pattern),
      });
      node.pattern = verdict.pattern;
    } else if (verdict.kind === "invalid") {
      repairs.push({ code: "OPENAPI_PATTERN_DROPPED", pointer: at, message: dropped(node.pattern) });
      delete node.pattern;
    }
  }
  if (!isJson(node.patternProperties)) return;
  const map = node.patternProperties;
  for (const key of Object.keys(map)) {
    const verdict = checkPattern(key);
    const at = `${pointer}/patternProperties/${token(key)}`;
    if (verdict.kind === "valid") continue;
    const value = map[key];
    delete map[key];
    if (verdict.kind === "repaired" && !Object.hasOwn(map, verdict.pattern)) {
      map[verdict.pattern] = value;
      repairs.push({ code: "OPENAPI_PATTERN_REPAIRED", pointer: at, message: rewritten(key, verdict.pattern) });
    } else repairs.push({ code: "OPENAPI_PATTERN_DROPPED", pointer: at, message: dropped(key) });
  }
}

const rewritten = (from: string, to: string) =>
  `pattern ${JSON.stringify(from)} is not valid with the u flag; rewritten as ${JSON.stringify(to)}, which matches the same strings`;
const dropped = (pattern: string) =>
  `pattern ${short(pattern)} is not an ECMA-262 regular expression valid with the u flag; it is dropped (values are not checked against it)`;

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
