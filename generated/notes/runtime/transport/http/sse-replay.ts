// 2025-era resumable SSE streams. Every event of a POST's stream gets an id
// (`<stream>_<seq>`) and is kept until the stream is done, so a client whose
// connection dropped can GET with Last-Event-ID and continue where it left off.
// (2026-07-28 removed resumability; its streams never go through here.)
import type { SseWriter } from "./sse.ts";

export const MAX_KEPT_EVENTS = 500;
/** Characters of event data kept for replay per stream; the newest event is kept whatever its size. */
export const MAX_KEPT_CHARS = 4 * 1024 * 1024;

/** Where a shared session store copies a stream's events, so another process can replay them. */
export type StreamMirror = { push(seq: number, data: string): void; finish(seq: number): void };

export class ResumableStream {
  private seq = 0;
  private readonly events: Array<{ seq: number; data: string }> = [];
  private keptChars = 0;
  private writer: SseWriter | undefined;
  done = false;

  constructor(
    readonly id: string,
    private readonly retryMs: number,
    private readonly onDone: () => void = () => {},
    private readonly mirror?: StreamMirror,
  ) {
    mirror?.push(0, "");
  }

  /** Starts delivering to a (new) connection: the priming event first, then everything after `afterSeq`. */
  attach(writer: SseWriter, afterSeq?: number): void {
    this.writer = writer;
    if (afterSeq === undefined) {
      // Priming event: an id and empty data, plus the reconnection delay (2025-11-25 transports).
      writer.event("", `${this.id}_0`, this.retryMs);
    } else {
      for (const event of this.events) if (event.seq > afterSeq) writer.event(event.data, `${this.id}_${event.seq}`);
    }
    if (this.done) writer.close();
  }

  push(data: string): void {
    const seq = ++this.seq;
    this.events.push({ seq, data });
    this.keptChars += data.length;
    while (this.events.length > 1 && (this.events.length > MAX_KEPT_EVENTS || this.keptChars > MAX_KEPT_CHARS)) {
      this.keptChars -= this.events.shift()?.data.length ?? 0;
    }
    this.mirror?.push(seq, data);
    this.writer?.event(data, `${this.id}_${seq}`);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    this.mirror?.finish(this.seq + 1);
    this.writer?.close();
    this.onDone();
  }
}

/** Splits a Last-Event-ID into the stream id and the sequence number. */
export function parseEventId(lastEventId: string): { streamId: string; seq: number } | undefined {
  const match = /^(.+)_(\d+)$/.exec(lastEventId);
  return match ? { streamId: match[1], seq: Number(match[2]) } : undefined;
}
