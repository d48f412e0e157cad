// A JSON-RPC peer over any message channel: correlates our requests with their responses (timeouts,
// cancellation) and runs incoming requests with an abort that `notifications/cancelled` trips.
import { LazyAbort } from "../server/deadlines.ts";
import { errorResponse, isNotification, isRequest, notification, request, resultResponse } from "./codec.ts";
import { ErrorCode } from "./constants.ts";
import { McpError, methodNotFound, toJsonRpcError } from "./errors.ts";
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId, Result } from "./types.ts";

export type RequestOptions = {
  signal?: AbortSignal;
  timeoutMs?: number; // milliseconds before the request is abandoned and cancelled; default 60 s
  /** Sends this request somewhere other than the peer's default channel (e.g. one HTTP response stream). */
  send?: (message: JsonRpcMessage) => void;
  id?: RequestId; // the id to use, when the caller must know it up front (subscriptions)
};

export type PeerOptions = {
  send: (message: JsonRpcMessage) => void;
  onRequest?: (request: JsonRpcRequest, signal: AbortSignal) => Promise<Result>;
  /** Preferred to onRequest: cancellation as a LazyAbort, so no AbortSignal is made unless the handler asks. */
  onLazyRequest?: (request: JsonRpcRequest, abort: LazyAbort) => Promise<Result>;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Whether to tell the other side with `notifications/cancelled` when we give up on a request. */
  announceCancellation?: boolean;
  defaultTimeoutMs?: number;
  idPrefix?: string; // ids `<prefix><n>`: processes sharing one 2025-era session must not both send id 1 to its client
};

type Pending = { resolve: (result: Result) => void; reject: (error: Error) => void; cleanup: () => void };

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export class JsonRpcPeer {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly incoming = new Map<RequestId, LazyAbort>();
  private closedWith: Error | undefined;

  constructor(private readonly options: PeerOptions) {}

  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<Result> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const { idPrefix } = this.options;
    const id = options.id ?? (idPrefix === undefined ? this.nextId++ : `${idPrefix}${this.nextId++}`);
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    return new Promise<Result>((resolve, reject) => {
      if (options.signal?.aborted) return reject(abortError(options.signal));
      const abandon = (error: Error, reason: string) => {
        if (!this.pending.has(id)) return;
        this.pending.get(id)?.cleanup();
        this.pending.delete(id);
        if (this.options.announceCancellation !== false)
          this.trySend(notification("notifications/cancelled", { requestId: id, reason }));
        reject(error);
      };
      const timer = setTimeout(() => abandon(timeoutError(method, timeoutMs), "timeout"), timeoutMs);
      const onAbort = () => abandon(abortError(options.signal), "cancelled by the caller");
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, { resolve, reject, cleanup });
      try {
        (options.send ?? this.options.send)(request(id, method, params));
      } catch (error) {
        cleanup();
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  notify(method: string, params?: JsonObject): void {
    this.options.send(notification(method, params));
  }

  /** Whether a request of ours with this id is still waiting for its answer. */
  awaits(id: RequestId | null | undefined): boolean {
    return id !== undefined && id !== null && this.pending.has(id);
  }

  receive(message: JsonRpcMessage): void {
    if (isRequest(message)) return void this.runIncoming(message);
    if (isNotification(message)) {
      if (message.method === "notifications/cancelled") this.cancelIncoming(message.params?.requestId);
      this.options.onNotification?.(message);
      return;
    }
    const id = message.id;
    if (id === undefined || id === null) return;
    const entry = this.pending.get(id);
    if (!entry) return; // late answer to a request we already gave up on
    this.pending.delete(id);
    entry.cleanup();
    if ("error" in message) entry.reject(McpError.fromJson(message.error));
    else entry.resolve(message.result);
  }

  /** Fails every outstanding request and aborts every running handler. */
  close(reason = new Error("Connection closed")): void {
    this.closedWith = reason;
    for (const entry of this.pending.values()) {
      entry.cleanup();
      entry.reject(reason);
    }
    this.pending.clear();
    for (const abort of this.incoming.values()) abort.abort(reason);
    this.incoming.clear();
  }

  private async runIncoming(message: JsonRpcRequest): Promise<void> {
    if (this.incoming.has(message.id)) {
      // A second request under an id still in progress: answering both would give the client two
      // responses it cannot tell apart, and a cancellation could stop either one.
      const text = `Invalid Request: id ${JSON.stringify(message.id).slice(0, 100)} is already in use by a request in progress`;
      return this.trySend(errorResponse(message.id, { code: ErrorCode.InvalidRequest, message: text }));
    }
    const abort = new LazyAbort();
    this.incoming.set(message.id, abort);
    try {
      const { onLazyRequest, onRequest } = this.options;
      const running = onLazyRequest ? onLazyRequest(message, abort) : onRequest?.(message, abort.signal);
      if (!running) throw methodNotFound(message.method);
      const result = await running;
      if (!abort.aborted) this.trySend(resultResponse(message.id, result));
    } catch (error) {
      // A cancelled request gets no response at all (cancellation spec).
      if (!abort.aborted) this.trySend(errorResponse(message.id, toJsonRpcError(error)));
    } finally {
      if (this.incoming.get(message.id) === abort) this.incoming.delete(message.id);
    }
  }

  private cancelIncoming(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    this.incoming.get(requestId)?.abort(new McpError(ErrorCode.RequestTimeout, "Request cancelled by the peer"));
    // The id is free at once: a handler that ignores its signal must not keep it (or its slot) taken.
    this.incoming.delete(requestId);
  }

  private trySend(message: JsonRpcMessage): void {
    try {
      this.options.send(message);
    } catch {
      // The channel is gone; there is nobody left to tell.
    }
  }
}

export function timeoutError(method: string, timeoutMs: number): McpError {
  return new McpError(ErrorCode.RequestTimeout, `Request ${method} timed out after ${timeoutMs} ms`);
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new Error(reason === undefined ? "Request aborted" : String(reason));
}
