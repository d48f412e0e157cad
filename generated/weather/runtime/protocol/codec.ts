// JSON-RPC 2.0 framing: text <-> validated message objects. No batches: MCP forbids them.
import { ErrorCode } from "./constants.ts";
import type {
  JsonObject,
  JsonRpcError,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  RequestId,
  Result,
} from "./types.ts";

export type DecodeResult = { ok: true; message: JsonRpcMessage } | { ok: false; error: JsonRpcErrorResponse };

export function decodeMessage(text: string): DecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: errorResponse(undefined, { code: ErrorCode.ParseError, message: "Parse error" }) };
  }
  return validateMessage(value);
}

function validateMessage(value: unknown): DecodeResult {
  if (Array.isArray(value)) return invalid("batch requests are not supported");
  if (!isObject(value)) return invalid("a message must be a JSON object");
  const id = isRequestId(value.id) ? value.id : undefined;
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', id);
  if ("method" in value) {
    if (typeof value.method !== "string" || value.method === "") return invalid('"method" must be a string', id);
    if (value.params !== undefined && !isObject(value.params)) return invalid('"params" must be an object', id);
    if ("id" in value && !isRequestId(value.id)) return invalid('"id" must be a string or an integer');
    return { ok: true, message: value as JsonRpcMessage };
  }
  const hasResult = "result" in value;
  const hasError = "error" in value;
  if (hasResult === hasError) return invalid('a response needs exactly one of "result" and "error"', id);
  if (hasResult && (!isRequestId(value.id) || !isObject(value.result))) return invalid("malformed result response", id);
  if (hasError && !isErrorObject(value.error)) return invalid("malformed error object", id);
  return { ok: true, message: value as JsonRpcMessage };
}

function invalid(message: string, id?: RequestId): DecodeResult {
  const error = errorResponse(id, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${message}` });
  return { ok: false, error };
}

export function encodeMessage(message: JsonRpcMessage): string {
  // JSON.stringify escapes control characters, so the output never contains a raw newline.
  return JSON.stringify(message);
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}

export function resultResponse(id: RequestId, result: Result): JsonRpcResultResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: RequestId | null | undefined, error: JsonRpcError): JsonRpcErrorResponse {
  // The MCP schema makes `id` optional (not null) when the request id is unknown.
  return id === undefined || id === null ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

export function request(id: RequestId, method: string, params?: JsonObject): JsonRpcRequest {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  // A safe integer only: a larger number has already lost digits in JSON.parse, so the response would
  // carry an id the client never sent and its request would wait forever.
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

function isErrorObject(value: unknown): boolean {
  return isObject(value) && typeof value.code === "number" && typeof value.message === "string";
}

// Keys from a spec or a client go through these two: `record[name]` would find Object.prototype's
// `toString`, and `record[name] = value` with `__proto__` would replace the record's prototype.

/** The record's own value for `key`, or undefined: never one inherited through the prototype. */
export function ownValue<T>(record: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Adds `key` as an own, enumerable data property, even when the key is `__proto__`. A key no prototype
 * has is plainly assigned: defineProperty costs several times more, and schema copies make millions.
 */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  if (key in record)
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** The JSON pointer of the first own `__proto__` key in parsed JSON. Iterative: arguments may nest 100,000 deep. */
export function protoKeyPointer(root: unknown): string | undefined {
  if (root === null || typeof root !== "object") return undefined;
  type Entry = { value: object; key: string; parent?: Entry };
  const stack: Entry[] = [{ value: root, key: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (!Array.isArray(entry.value) && Object.hasOwn(entry.value, "__proto__")) {
      // The pointer is built only for the key found: building one per level would be quadratic.
      const keys = ["__proto__"];
      for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.unshift(e.key);
      return keys.map((key) => `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
    }
    for (const key in entry.value) {
      const item = (entry.value as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") stack.push({ value: item, key, parent: entry });
    }
  }
  return undefined;
}
