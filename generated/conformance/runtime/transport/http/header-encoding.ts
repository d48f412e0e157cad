// Body fields mirrored into HTTP headers (2026-07-28): the `=?base64?...?=` encoding, `x-mcp-header`.
import { isObject, ownValue } from "../../protocol/codec.ts";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_PRIMITIVES = new Set(["integer", "string", "boolean"]);
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** Encodes a header value, switching to Base64 when it is not plain, trimmed, visible ASCII or looks like the sentinel. */
export function encodeHeaderValue(value: string): string {
  const sentinel = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  const plain = /^[\x20-\x7E]*$/.test(value) && value.trim() === value && !sentinel;
  return plain ? value : `${SENTINEL_PREFIX}${Buffer.from(value, "utf8").toString("base64")}${SENTINEL_SUFFIX}`;
}

/** Undefined when the value carries invalid characters or malformed Base64. */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!/^[\t\x20-\x7E]*$/.test(raw)) return undefined;
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, "");
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= 11)) return value;
  const encoded = value.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  try {
    return utf8Decoder.decode(Buffer.from(encoded, "base64"));
  } catch {
    return undefined;
  }
}

/** A parameter value's string form per the spec's type conversion; undefined means "omit the header". */
function headerStringFor(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

export type HeaderParam = { header: string; path: string[]; type: string };
export function collectHeaderParams(
  inputSchema: unknown,
): { ok: true; params: HeaderParam[] } | { ok: false; reason: string } {
  const params: HeaderParam[] = [];
  const reachable = new Set<unknown>();
  const walkProperties = (schema: unknown, path: string[]): string | undefined => {
    if (!isObject(schema) || !isObject(schema.properties)) return undefined;
    for (const [key, child] of Object.entries(schema.properties)) {
      if (!isObject(child)) continue;
      reachable.add(child);
      if ("x-mcp-header" in child) {
        const problem = checkAnnotation(child, [...path, key]);
        if (problem) return problem;
        params.push({ header: child["x-mcp-header"] as string, path: [...path, key], type: primitiveType(child) });
      }
      const nested = walkProperties(child, [...path, key]);
      if (nested) return nested;
    }
    return undefined;
  };
  const problem = walkProperties(inputSchema, []);
  if (problem) return { ok: false, reason: problem };
  const stray = findStrayAnnotation(inputSchema, reachable, []);
  if (stray) return { ok: false, reason: `x-mcp-header at ${stray} is not reachable through "properties" alone` };
  const names = params.map((param) => param.header.toLowerCase());
  const repeated = params.find((_, index) => names.indexOf(names[index]) !== index);
  if (repeated) return { ok: false, reason: `x-mcp-header "${repeated.header}" is not unique (case-insensitive)` };
  return { ok: true, params };
}

/** The `Mcp-Param-*` headers for a call's arguments: annotated values that are present, encoded. */
export function headerParamValues(params: HeaderParam[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const text = headerStringFor(valueAtPath(args, param.path));
    if (text !== undefined) headers[`Mcp-Param-${param.header}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** Server side: the first problem of the `Mcp-Param-*` headers against the body, if any. */
export function checkHeaderParams(
  params: HeaderParam[],
  args: Record<string, unknown>,
  getHeader: (name: string) => string | undefined,
): string | undefined {
  for (const param of params) {
    const name = `Mcp-Param-${param.header}`;
    const raw = getHeader(name);
    const bodyValue = valueAtPath(args, param.path);
    const absent = bodyValue === undefined || bodyValue === null;
    if (absent && raw !== undefined) return `${name} header is present but the argument is absent`;
    if (absent) continue;
    if (raw === undefined) return `${name} header is missing`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `${name} header has an invalid value`;
    const matches =
      typeof bodyValue === "number"
        ? decoded.trim() !== "" && Number(decoded) === bodyValue
        : headerStringFor(bodyValue) === decoded;
    if (!matches) return `${name} header value does not match the body`;
  }
  return undefined;
}

const valueAtPath = (args: unknown, path: string[]) =>
  path.reduce<unknown>((current, key) => (isObject(current) ? ownValue(current, key) : undefined), args);

function checkAnnotation(schema: Record<string, unknown>, path: string[]): string | undefined {
  const name = schema["x-mcp-header"];
  const where = `property "${path.join(".")}"`;
  if (typeof name !== "string" || name === "") return `x-mcp-header on ${where} must be a non-empty string`;
  if (!TOKEN.test(name)) return `x-mcp-header "${name}" on ${where} is not a valid HTTP header token`;
  if (primitiveType(schema) === "")
    return `x-mcp-header "${name}" on ${where} must annotate an integer, string or boolean parameter`;
  return undefined;
}

/** The schema's one type besides "null" if it is integer, string or boolean, else "". */
function primitiveType(schema: Record<string, unknown>): string {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== "null");
  return types.length === 1 && HEADER_PRIMITIVES.has(types[0] as string) ? (types[0] as string) : "";
}

/** The JSON pointer of an annotation anywhere in the schema (arrays included) that `properties` does not reach. */
function findStrayAnnotation(node: unknown, reachable: Set<unknown>, path: string[]): string | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  if (isObject(node) && "x-mcp-header" in node && !reachable.has(node)) return `/${path.join("/")}`;
  for (const [key, child] of Object.entries(node)) {
    const found = findStrayAnnotation(child, reachable, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
