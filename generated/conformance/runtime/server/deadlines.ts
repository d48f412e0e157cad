// Handler deadlines of one server with one timer per timeout length instead of a setTimeout and
// clearTimeout per request. Node keeps a timer list per duration and drops it when it empties, so a
// sequential client made every request rebuild that list and re-arm libuv's timer (visible in
// tools/call profiles). Requests with the same timeout expire in the order they started, so each
// length is a FIFO whose head alone needs a timer. The FIFO is a list threaded through the entries
// themselves: a Map that goes from empty to one entry and back on every request kept reallocating
// its table. A setTimeout/clearTimeout per request instead costs +8–60% server CPU per call (stdio, 64 in
// flight; bench/RESULTS.md "Micro-optimisations").
import { performance } from "node:perf_hooks";

/** Something with a deadline. The fields besides expire() belong to Deadlines; start them undefined. */
export type Expiring = {
  expire(): void;
  deadlineAt: number;
  deadlineLane: Lane | undefined;
  older: Expiring | undefined;
  newer: Expiring | undefined;
};

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class Deadlines {
  private readonly lanes = new Map<number, Lane>();

  /** Calls `entry.expire()` once `timeoutMs` have passed, unless `delete(entry)` came first. */
  add(entry: Expiring, timeoutMs: number): void {
    // setTimeout's own clamp (a per-request timer did this): out of range or NaN means 1 ms.
    const ms = timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS ? timeoutMs : 1;
    let lane = this.lanes.get(ms);
    if (lane === undefined) {
      lane = new Lane(ms);
      this.lanes.set(ms, lane);
    }
    lane.add(entry);
  }

  delete(entry: Expiring): void {
    entry.deadlineLane?.delete(entry);
  }
}

export class Lane {
  private oldest: Expiring | undefined = undefined;
  private newest: Expiring | undefined = undefined;
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(private readonly timeoutMs: number) {}

  add(entry: Expiring): void {
    entry.deadlineAt = performance.now() + this.timeoutMs;
    entry.deadlineLane = this;
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
    if (this.timer === undefined) this.timer = setTimeout(this.fire, this.timeoutMs);
    // Like the per-request timers before it, a pending deadline keeps the process alive; an idle lane does not.
    else if (entry.older === undefined) this.timer.ref();
  }

  delete(entry: Expiring): void {
    if (entry.deadlineLane !== this) return;
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.deadlineLane = undefined;
    entry.older = undefined;
    entry.newer = undefined;
    if (this.oldest === undefined) this.timer?.unref();
  }

  private readonly fire = () => {
    this.timer = undefined;
    const now = performance.now();
    for (let entry = this.oldest; entry !== undefined; entry = this.oldest) {
      // libuv measures from the start of the loop turn, so the timer may fire a little before the deadline.
      if (entry.deadlineAt > now + 1) {
        clearTimeout(this.timer); // one an expire() callback may have armed by adding an entry
        this.timer = setTimeout(this.fire, Math.ceil(entry.deadlineAt - now));
        return;
      }
      this.delete(entry);
      entry.expire();
    }
  };
}

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
