import { ErrorCode } from "./constants.ts";
import type { JsonRpcError } from "./types.ts";

/** An error that travels over the wire as a JSON-RPC error object. Throw it from handlers to pick the code. */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "McpError";
  }

  toJson(): JsonRpcError {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }

  static fromJson(error: JsonRpcError): McpError {
    return new McpError(error.code, error.message, error.data);
  }
}

// "Resource not found": -32002 in the 2025 era, -32602 (invalid params) since 2026-07-28 (changelog,
// minor change 6). Throw `notFound(uri)`: resources/read answers with the code of the request's era.
export class ResourceNotFoundError extends McpError {
  constructor(
    readonly uri: string,
    era: "modern" | "legacy" = "modern",
    message = `Resource not found: ${uri}`,
  ) {
    super(era === "modern" ? ErrorCode.InvalidParams : ErrorCode.LegacyResourceNotFound, message, { uri });
    this.name = "ResourceNotFoundError";
  }
}

/** The error to throw when nothing exists at `uri`; the server gives it the code of the request's era. */
export function notFound(uri: string, message?: string): ResourceNotFoundError {
  return new ResourceNotFoundError(uri, "modern", message);
}

export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** Turns anything a handler threw into a wire error without leaking stack traces. */
export function toJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof McpError) return error.toJson();
  return { code: ErrorCode.InternalError, message: errorMessage(error) || "Internal error" };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
