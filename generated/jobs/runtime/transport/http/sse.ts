// Server-Sent Events (the fields MCP uses): a writer, the client's parser, and 2025-era resumable streams.
import type { ServerResponse } from "node:http";

export type SseWriter = {
  event(data: string, id?: string, retryMs?: number): void;
  /** Ends the stream; with `retryMs`, first tells the client how soon to reconnect (the `retry` field). */
  close(retryMs?: number): void;
  closed: boolean;
};

let open = 0;
export const openStreams = () => open; // SSE streams open in this process (the mcp_open_streams metric)

export function startSse(res: ServerResponse, extraHeaders: Record<string, string>, keepAliveMs: number): SseWriter {
  const headers = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" };
  // X-Accel-Buffering: nginx-style proxies must not buffer the stream (streamable-http spec).
  res.writeHead(200, { ...headers, Connection: "keep-alive", "X-Accel-Buffering": "no", ...extraHeaders });
  res.flushHeaders();
  const keepAlive = setInterval(() => writer.closed || res.write(":\n\n"), keepAliveMs).unref();
  open++;
  /** False when the stream had already ended. */
  const end = () => {
    if (writer.closed) return false;
    writer.closed = true;
    clearInterval(keepAlive);
    open--;
    return true;
  };
  const writer: SseWriter = {
    closed: false,
    event(data, id, retryMs) {
      if (writer.closed) return;
      const idLine = id === undefined ? "" : `id: ${id}\n`;
      const retryLine = retryMs === undefined ? "" : `retry: ${retryMs}\n`;
      res.write(`${idLine}${retryLine}data: ${data.split("\n").join("\ndata: ")}\n\n`);
    },
    close(retryMs) {
      if (end()) res.end(retryMs === undefined ? undefined : `retry: ${retryMs}\n\n`);
    },
  };
  res.on("close", end);
  return writer;
}

export type SseEvent = { data: string; id?: string; event?: string };

/** Incremental SSE parser: feed text chunks, receive complete events; tracks `retry` and the last event id. */
export class SseParser {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  private buffer = "";
  private data: string[] = [];
  private eventName: string | undefined;
  private eventId: string | undefined;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  feed(chunk: string): void {
    this.buffer += chunk;
    for (let match = /\r\n|\r|\n/.exec(this.buffer); match; match = /\r\n|\r|\n/.exec(this.buffer)) {
      // A lone trailing "\r" may be the first half of "\r\n"; wait for more input.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string) {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.eventName = value;
    else if (field === "id" && !value.includes("\0")) this.eventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    if (this.eventId !== undefined) this.lastEventId = this.eventId;
    const event: SseEvent = { data: this.data.join("\n"), id: this.eventId, event: this.eventName };
    const hasData = this.data.length > 0;
    this.data = [];
    this.eventName = undefined;
    this.eventId = undefined;
    if (hasData) this.onEvent(event);
  }
}

// 2025-era resumable streams: each event of a POST's stream has an id (`<stream>_<seq>`) and is kept until
// the stream is done, so a client whose connection dropped can GET with Last-Event-ID and continue.
export const MAX_KEPT_EVENTS = 500;
/** Characters of event data kept for replay per stream; the newest event is kept whatever its size. */
const MAX_KEPT_CHARS = 4 * 1024 * 1024;

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
    // A new stream's priming event: an id and empty data, plus the reconnection delay (2025-11-25 transports).
    if (afterSeq === undefined) writer.event("", `${this.id}_0`, this.retryMs);
    else for (const event of this.events) if (event.seq > afterSeq) writer.event(event.data, `${this.id}_${event.seq}`);
    if (this.done) writer.close();
  }

  push(data: string): void {
    const seq = ++this.seq;
    this.events.push({ seq, data });
    this.keptChars += data.length;
    while (this.events.length > 1 && (this.events.length > MAX_KEPT_EVENTS || this.keptChars > MAX_KEPT_CHARS))
      this.keptChars -= this.events.shift()?.data.length ?? 0;
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

export function parseEventId(lastEventId: string): { streamId: string; seq: number } | undefined {
  const match = /^(.+)_(\d+)$/.exec(lastEventId);
  return match ? { streamId: match[1], seq: Number(match[2]) } : undefined;
}
