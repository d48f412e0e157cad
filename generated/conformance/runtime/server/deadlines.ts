// Handler deadlines with one timer per timeout length: requests of one length expire in start order, so
// each length is a FIFO (threaded through the entries, no Map churn) whose head alone needs a timer.
// A setTimeout/clearTimeout per request costs +8–60% server CPU per call (bench/RESULTS.md "Micro-optimisations").
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

/** Cancellation without an AbortController until someone reads `signal`: most handlers never do, and an
 * eager one per request doubles server CPU per call (bench/RESULTS.md "Micro-optimisations"). */
export class LazyAbort {
  aborted = false;
  reason: unknown = undefined;
  /** Aborted along with this one, after the signal's listeners have run (a request's run follows its transport's). */
  target: { abort(reason: unknown): void } | undefined = undefined;
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
