// One run of a request inside the server: its cancellation (the handler's `ctx.signal`, made lazily),
// its deadline, and the race that answers a cancelled or timed-out request without waiting for a
// handler that ignores its signal.
import { ErrorCode } from "../protocol/constants.ts";
import { McpError } from "../protocol/errors.ts";
import type { Expiring, Lane } from "./deadlines.ts";
import { LazyAbort } from "./lazy-abort.ts";

/** The abort reason once a request has been answered. Shared: a fresh Error per request (stack capture)
 * costs +27–52% server CPU per call (stdio, 64 in flight; bench/RESULTS.md "Micro-optimisations"). */
const REQUEST_FINISHED = new Error("Request finished");

export class RequestRun extends LazyAbort implements Expiring {
  /** Rejects the promise race() returned; set while it is pending. */
  private interrupt: ((reason: unknown) => void) | undefined = undefined;
  // Expiring: kept by the server's Deadlines.
  deadlineAt = 0;
  deadlineLane: Lane | undefined = undefined;
  older: Expiring | undefined = undefined;
  newer: Expiring | undefined = undefined;

  constructor(
    private readonly method: string,
    /** The handler deadline (undefined: none, e.g. subscriptions/listen runs until cancelled). */
    readonly timeoutMs: number | undefined,
  ) {
    super();
  }

  /** The work's outcome, or a rejection with the abort reason as soon as this run is aborted. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.aborted) {
      work.catch(() => {}); // a late failure must not become an unhandled rejection
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.interrupt = reject;
      work.then(resolve, reject);
    });
  }

  override abort(reason?: unknown): void {
    if (this.aborted) return;
    super.abort(reason);
    const interrupt = this.interrupt;
    this.interrupt = undefined;
    interrupt?.(this.reason);
  }

  /** After the answer: a signal the handler kept (or reads later) reports the request as over. */
  finish(): void {
    this.interrupt = undefined;
    this.abort(REQUEST_FINISHED);
  }

  expire(): void {
    this.abort(new McpError(ErrorCode.RequestTimeout, `${this.method} timed out after ${this.timeoutMs} ms`));
  }
}
