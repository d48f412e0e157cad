// Cancellation of one request without an AbortController until someone asks for the signal.
// An AbortSignal is an EventTarget (a Map of listeners, an Event object per abort, dispatch); most
// handlers never read `ctx.signal`, so most requests now make none. An eager AbortController per
// request doubles server CPU per call (+97–118%, stdio, 64 in flight; bench/RESULTS.md "Micro-optimisations").

/** Told once when a LazyAbort aborts (the server's run of a request follows its transport's abort). */
export type AbortTarget = { abort(reason: unknown): void };

export class LazyAbort {
  aborted = false;
  reason: unknown = undefined;
  /** Aborted along with this one, after the signal's listeners have run. */
  target: AbortTarget | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  /** The AbortSignal, made on first use; already aborted (with the same reason) if this is. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    // What AbortController.abort() would have put on the signal, so `reason` and `signal.reason` agree.
    this.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    this.controller?.abort(this.reason);
    const target = this.target;
    this.target = undefined;
    target?.abort(this.reason);
  }
}
