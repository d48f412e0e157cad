// Handler deadlines of one server with one timer per timeout length instead of a setTimeout and
// clearTimeout per request. Node keeps a timer list per duration and drops it when it empties, so a
// sequential client made every request rebuild that list and re-arm libuv's timer (visible in
// tools/call profiles). Requests with the same timeout expire in the order they started, so each
// length is a FIFO whose head alone needs a timer.
import { performance } from "node:perf_hooks";

export type Expiring = { expire(): void };

export class Deadlines {
  private readonly lanes = new Map<number, Lane>();

  /** Calls `entry.expire()` once `timeoutMs` have passed, unless `delete(entry, timeoutMs)` came first. */
  add(entry: Expiring, timeoutMs: number): void {
    let lane = this.lanes.get(timeoutMs);
    if (lane === undefined) {
      lane = new Lane(timeoutMs);
      this.lanes.set(timeoutMs, lane);
    }
    lane.add(entry);
  }

  delete(entry: Expiring, timeoutMs: number): void {
    this.lanes.get(timeoutMs)?.delete(entry);
  }
}

class Lane {
  /** Entry → deadline (performance.now() ms); insertion order is deadline order. */
  private readonly entries = new Map<Expiring, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  add(entry: Expiring): void {
    this.entries.set(entry, performance.now() + this.timeoutMs);
    if (this.timer === undefined) this.timer = setTimeout(this.fire, this.timeoutMs);
    // Like the per-request timers before it, a pending deadline keeps the process alive; an idle lane does not.
    else if (this.entries.size === 1) this.timer.ref();
  }

  delete(entry: Expiring): void {
    if (this.entries.delete(entry) && this.entries.size === 0) this.timer?.unref();
  }

  private readonly fire = () => {
    this.timer = undefined;
    const now = performance.now();
    for (const [entry, deadline] of this.entries) {
      // libuv measures from the start of the loop turn, so the timer may fire a little before the deadline.
      if (deadline > now + 1) {
        clearTimeout(this.timer); // one an expire() callback may have armed by adding an entry
        this.timer = setTimeout(this.fire, Math.ceil(deadline - now));
        return;
      }
      this.entries.delete(entry);
      entry.expire();
    }
  };
}
