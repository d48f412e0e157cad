// Graceful shutdown (issue 18 §3), in the order a load balancer needs: 1. /readyz turns 503 at once (the caller's
// `closing`); 2. for the grace period requests are still served, connections kept alive (closing each would have a
// proxy connect anew per request, and one still queued when the listener closes is reset, its POST lost); 3. the
// listener closes, each answer closes its connection, GET streams end with an SSE `retry` hint, a request on an open
// connection gets 503 (not run); 4. requests in flight finish until the shutdown timeout, the rest get a 500 (they
// may have run); 5. with a grace period (behind a proxy), open connections stay open until their peer closes them or
// they idle out (IDLE_CONNECTION_MS, above the generated nginx's keepalive_timeout), within the shutdown timeout:
// closing a kept-alive one races a proxy's POST on it (lost); kept open, the POST gets a 503 and goes elsewhere.
import type { Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import { sendJson } from "./responder.ts";
import type { SseWriter } from "./sse.ts";

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

export class Drain {
  phase: "serving" | "draining" | "stopped" = "serving";
  private readonly inFlight = new Set<ServerResponse>();
  /** GET streams, ended with a reconnect hint when the listener closes. */
  readonly streams = new Set<SseWriter>();
  private idle: (() => void) | undefined;

  /** Call for every MCP request: counts POSTs until answered; `onClose` runs when the response closes. */
  admit(res: ServerResponse, counted: boolean, onClose?: () => void): void {
    if (counted) {
      this.inFlight.add(res);
      res.on("close", this.answered);
    }
    if (onClose) res.once("close", onClose);
  }

  /** The close listener of all counted responses (`this` is one): no closure or `once` wrapper per request. */
  private readonly answered = ((drain: Drain) =>
    function (this: ServerResponse) {
      drain.inFlight.delete(this);
      if (drain.inFlight.size === 0) drain.idle?.();
    })(this);

  /** Once the listener is closed, a request on an already open connection gets this answer. */
  refuse(res: ServerResponse): void {
    const error = { code: ErrorCode.InternalError, message: "Server is shutting down; retry (another instance)" };
    sendJson(res, 503, errorResponse(undefined, error), { "Retry-After": "1", Connection: "close" });
  }

  /** `onStop` runs as the listener closes: it ends what never finishes by itself (2026-era listen streams). */
  async run(
    http: Server,
    options: { graceMs: number; timeoutMs: number; retryMs: number; onStop: () => void },
  ): Promise<void> {
    const started = Date.now();
    this.phase = "draining";
    if (options.graceMs > 0) await sleep(options.graceMs);
    this.phase = "stopped";
    // Answers still to come close their connections, like those of requests that arrive now (routes.ts).
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    // http.Server#close would also drop idle kept-alive connections at once (step 5 says why not yet).
    const allClosed = new Promise<void>((resolve) => NetServer.prototype.close.call(http, () => resolve()));
    if (options.graceMs === 0) http.closeIdleConnections();
    for (const writer of this.streams) writer.close(options.retryMs);
    this.streams.clear();
    options.onStop();
    const left = options.timeoutMs - (Date.now() - started);
    if (this.inFlight.size > 0 && left > 0)
      await within(
        new Promise<void>((resolve) => {
          this.idle = resolve;
        }),
        left,
      );
    for (const res of this.inFlight) {
      if (res.headersSent) res.end();
      else {
        const message = `Server shut down before this request finished (shutdown timeout ${options.timeoutMs} ms)`;
        const error = { code: ErrorCode.InternalError, message };
        sendJson(res, 500, errorResponse(undefined, error), { Connection: "close" });
      }
    }
    const linger = options.timeoutMs - (Date.now() - started);
    if (options.graceMs > 0 && linger > 0) await within(allClosed, linger);
    http.closeIdleConnections();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `done`, at most `ms`, leaving no timer behind (it may be the shutdown timeout, 30 s): the
 * requests in flight, then the connections a proxy keeps. */
function within(done: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}
