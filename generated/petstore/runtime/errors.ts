import { ErrorCode } from "./constants.ts";
import type { JsonRpcError } from "./types.ts";

/** An error that travels over the wire as a JSON-RPC error object. Throw it from handlers to pick the code. */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }

  toJson(): JsonRpcError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromJson(error: JsonRpcError): McpError {
    return new McpError(error.code, error.message, error.data);
  }
}

export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

export function internalError(message: string): McpError {
  return new McpError(ErrorCode.InternalError, message);
}

/** Turns anything a handler threw into a wire error without leaking stack traces. */
export function toJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof McpError) return error.toJson();
  const message = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.InternalError, message: message || "Internal error" };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
