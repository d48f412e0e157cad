// One POST's answer: plain JSON, or an SSE stream once anything must go out before the final response.
import type { ServerResponse } from "node:http";
import { encodeMessage, isResponse } from "../../protocol/codec.ts";
import type { JsonRpcMessage } from "../../protocol/types.ts";
import { noteAnswer } from "./request-record.ts";
import { type ResumableStream, type SseWriter, startSse } from "./sse.ts";

type ResponderOptions = {
  headers: Readonly<Record<string, string>>;
  statusFor?: (message: JsonRpcMessage) => number; // HTTP status for a final message sent as plain JSON (default 200)
  openResumable?: () => ResumableStream; // 2025 era: makes the SSE stream resumable (event ids, priming event, replay)
};

export class PostResponder {
  private sse: SseWriter | undefined;
  private resumable: ResumableStream | undefined;
  /** Whether the final response (or an abandonment) has been sent. */
  finished = false;

  constructor(
    private readonly res: ServerResponse,
    readonly canStream: boolean,
    private readonly keepAliveMs: number,
    private readonly options: ResponderOptions,
  ) {}

  send(message: JsonRpcMessage): void {
    // A resumable stream keeps what it is sent for a resuming client even if this connection is gone.
    if (this.finished || (!this.resumable && this.res.destroyed)) return;
    if (!this.sse) {
      if (!this.canStream) return; // the client cannot receive interim messages; drop them
      this.sse = startSse(this.res, this.options.headers, this.keepAliveMs);
      this.resumable = this.options.openResumable?.();
      this.resumable?.attach(this.sse);
    }
    if (this.resumable) this.resumable.push(encodeMessage(message));
    else this.sse.event(encodeMessage(message));
  }

  /** Ends the exchange without a JSON-RPC response (the request was cancelled). */
  abandon(): void {
    if (this.finished) return;
    this.finished = true;
    this.resumable?.finish();
    if (this.res.destroyed) return;
    if (this.sse) this.sse.close();
    else this.res.writeHead(204, this.options.headers).end();
  }

  finish(message: JsonRpcMessage): void {
    if (this.finished) return;
    this.finished = true;
    noteAnswer(this.res, message);
    if (this.resumable) {
      // Even if this connection is gone, a resuming client can still collect the response.
      this.resumable.push(encodeMessage(message));
      this.resumable.finish();
      return;
    }
    if (this.res.destroyed) return;
    if (this.sse) {
      this.sse.event(encodeMessage(message));
      this.sse.close();
      return;
    }
    const body = encodeMessage(message); // before the head: a message that cannot be encoded gets the 500
    const status = (isResponse(message) && this.options.statusFor?.(message)) || 200;
    this.res.writeHead(status, { ...this.options.headers, "Content-Type": "application/json" });
    this.res.end(body);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: JsonRpcMessage | undefined,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end();
  noteAnswer(res, body);
  res.writeHead(status, body === undefined ? headers : { ...headers, "Content-Type": "application/json" });
  res.end(body === undefined ? undefined : encodeMessage(body));
}
