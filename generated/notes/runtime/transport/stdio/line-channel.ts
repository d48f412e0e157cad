// Newline-delimited JSON over a pair of byte streams (the stdio framing).
import { StringDecoder } from "node:string_decoder";
import { decodeMessage, encodeMessage, errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { JsonRpcErrorResponse, JsonRpcMessage } from "../../protocol/types.ts";

type LineChannelHandlers = {
  onMessage: (message: JsonRpcMessage) => void;
  /** A line that is not a valid JSON-RPC message; the error response is ready to send back. */
  onInvalid: (error: JsonRpcErrorResponse) => void;
  onEnd: () => void;
  /** Pause input while output waits (the server; not a client: two paused ends would wait for each other). */
  backPressure?: boolean;
};

/** The longest line (in UTF-16 code units) read as one message; longer ones are answered -32600 and dropped. */
const MAX_LINE_LENGTH = 64 * 1024 * 1024;
const OUTPUT_HIGH_WATER = 1024 * 1024;

/** Messages sent in the same tick leave in one write (on nextTick): a pipe write is a syscall, synchronous on
 * Linux, so with many requests in flight one write per message cost more than the messages themselves. */
export function openLineChannel(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handlers: LineChannelHandlers,
) {
  const reader = new LineReader(handlers);
  let ended = false;
  let broken = false; // the output failed (the peer went away): nothing more is written
  let queued = "";
  // Back-pressure: while the output holds more than its high-water mark (a peer that does not read),
  // stop reading input, so unanswered requests wait in the pipe, not as queued answers in our memory.
  let pausedInput = false;
  const resumeInput = () => {
    pausedInput = false;
    if (!ended) input.resume();
  };
  const drain = () => {
    const text = queued;
    queued = "";
    if (text === "" || broken) return;
    // write() returns false past the stream's own (16 KiB) mark even when the pipe took everything at
    // once; pausing is for output that really waits, so it also looks at what is still queued.
    const backedUp = !output.write(text);
    const waiting = (output as { writableLength?: number }).writableLength ?? Number.POSITIVE_INFINITY;
    if (backedUp && handlers.backPressure && !pausedInput && waiting > OUTPUT_HIGH_WATER) {
      pausedInput = true;
      input.pause();
      output.once("drain", resumeInput);
    }
  };
  const end = () => {
    if (ended) return;
    ended = true;
    reader.end();
    handlers.onEnd();
  };
  input.on("data", (chunk: Buffer | string) => reader.feed(chunk));
  input.on("end", end);
  input.on("close", end);
  input.on("error", end);
  // A peer that stops reading (EPIPE on stdout) has gone, like one that closes stdin. Without a listener
  // the error event would crash the process with a stack trace.
  output.on("error", () => {
    broken = true;
    end();
  });
  return {
    send(message: JsonRpcMessage): void {
      const line = `${encodeMessage(message)}\n`; // encoded first: a message that throws queues nothing
      if (queued === "") process.nextTick(drain);
      queued += line;
    },
    flush(): Promise<void> {
      drain();
      return broken ? Promise.resolve() : new Promise((resolve) => output.write("", () => resolve()));
    },
  };
}

class LineReader {
  private readonly decoder = new StringDecoder("utf8");
  // The text of the line being read, as pieces: appending to one string and searching it for a newline
  // on every chunk would copy a long line once per chunk (quadratic in its length).
  private pieces: string[] = [];
  private pendingLength = 0;
  // Inside a line that outgrew maxLineLength: its rest is dropped up to the next newline.
  private discarding = false;

  constructor(private readonly handlers: LineChannelHandlers) {}

  feed(chunk: Buffer | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
      const head = text.slice(start, newline);
      const line = this.pieces.length === 0 ? head : this.pieces.join("") + head;
      this.pieces = [];
      this.pendingLength = 0;
      if (this.discarding) this.discarding = false;
      else this.processLine(line);
      start = newline + 1;
    }
    if (start === text.length || this.discarding) return;
    this.pendingLength += text.length - start;
    if (this.pendingLength <= MAX_LINE_LENGTH) {
      this.pieces.push(start === 0 ? text : text.slice(start));
      return;
    }
    // A peer that never ends its line would otherwise grow this buffer until the process dies.
    const message = `Invalid Request: message longer than ${MAX_LINE_LENGTH} characters`;
    this.handlers.onInvalid(errorResponse(undefined, { code: ErrorCode.InvalidRequest, message }));
    this.discarding = true;
    this.pieces = [];
    this.pendingLength = 0;
  }

  end(): void {
    const rest = this.pieces.join("") + this.decoder.end();
    if (!this.discarding) this.processLine(rest);
    this.pieces = [];
  }

  private processLine(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const decoded = decodeMessage(line);
    if (decoded.ok) this.handlers.onMessage(decoded.message);
    else this.handlers.onInvalid(decoded.error);
  }
}
