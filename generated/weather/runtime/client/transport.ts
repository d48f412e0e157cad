// What the client needs from a transport. Both implementations deliver
// messages that are not answers to our requests (notifications, 2025-era
// server-to-client requests) through the same incoming handlers.
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, Result } from "../protocol/types.ts";
import type { ClientRevision } from "./revision.ts";

export type TransportRequestOptions = {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra HTTP headers (the `Mcp-Param-*` mirrors); ignored by stdio. */
  headers?: Record<string, string>;
  /** Notifications that belong to this request (HTTP response stream); stdio delivers them to onNotification. */
  onNotification?: (message: JsonRpcNotification) => void;
  /** The request id to use, when the caller must know it up front (subscriptions). */
  id?: string | number;
};

export type IncomingHandlers = {
  onRequest: (request: JsonRpcRequest, signal: AbortSignal) => Promise<Result>;
  onNotification: (message: JsonRpcNotification) => void;
};

export type ClientTransport = {
  readonly kind: "stdio" | "http";
  setIncomingHandlers(handlers: IncomingHandlers): void;
  /** Which revision/version subsequent requests speak (drives HTTP headers and sessions). */
  setProtocol(revision: ClientRevision, protocolVersion: string): void;
  request(method: string, params: JsonObject | undefined, options?: TransportRequestOptions): Promise<Result>;
  notify(method: string, params?: JsonObject): Promise<void>;
  close(): Promise<void>;
};

/** A failure below JSON-RPC: an HTTP status without a JSON-RPC error body, a dead process, a broken stream. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "TransportError";
  }
}
