// Newline-delimited JSON over a pair of byte streams (the stdio framing).
import { StringDecoder } from "node:string_decoder";
import { decodeMessage, encodeMessage, errorResponse } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import type { JsonRpcErrorResponse, JsonRpcMessage } from "../../protocol/types.ts";

export type LineChannelHandlers = {
  onMessage: (message: JsonRpcMessage) => void;
  /** A line that is not a valid JSON-RPC message; the error response is ready to send back. */
  onInvalid: (error: JsonRpcErrorResponse, line: string) => void;
  onEnd: () => void;
  /** Stop reading input while more than OUTPUT_HIGH_WATER bytes of output wait (the stdio server). A
   * client must not: if both ends stopped reading while their output waited, neither would go on. */
  backPressure?: boolean;
};

export type LineChannel = { send(message: JsonRpcMessage): void; flush(): Promise<void> };

/** The longest line (in UTF-16 code units) read as one message; longer ones are answered -32600 and dropped. */
export const MAX_LINE_LENGTH = 64 * 1024 * 1024;

/** Output bytes waiting to be written above which input is no longer read (until the output drains). */
export const OUTPUT_HIGH_WATER = 1024 * 1024;

export function openLineChannel(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handlers: LineChannelHandlers,
  maxLineLength = MAX_LINE_LENGTH,
): LineChannel {
  const decoder = new StringDecoder("utf8");
  // The text of the line being read, as pieces: appending to one string and searching it for a newline
  // on every chunk would copy a long line once per chunk (quadratic in its length).
  let pieces: string[] = [];
  let pendingLength = 0;
  // Inside a line that outgrew maxLineLength: its rest is dropped up to the next newline.
  let discarding = false;
  const processLine = (raw: string) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const decoded = decodeMessage(line);
    if (decoded.ok) handlers.onMessage(decoded.message);
    else handlers.onInvalid(decoded.error, line);
  };
  input.on("data", (chunk: Buffer | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      const head = text.slice(start, newline);
      const line = pieces.length === 0 ? head : pieces.join("") + head;
      pieces = [];
      pendingLength = 0;
      if (discarding) discarding = false;
      else processLine(line);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start === text.length || discarding) return;
    pendingLength += text.length - start;
    // A peer that never ends its line would otherwise grow this buffer until the process dies.
    if (pendingLength > maxLineLength) {
      handlers.onInvalid(tooLarge(maxLineLength), "");
      discarding = true;
      pieces = [];
      pendingLength = 0;
      return;
    }
    pieces.push(start === 0 ? text : text.slice(start));
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const rest = pieces.join("") + decoder.end();
    if (!discarding) processLine(rest);
    pieces = [];
    handlers.onEnd();
  };
  input.on("end", end);
  input.on("close", end);
  input.on("error", end);
  // A peer that stops reading (EPIPE on stdout) has gone, like one that closes stdin. Without a listener
  // the error event would crash the process with a stack trace.
  let broken = false;
  output.on("error", () => {
    broken = true;
    end();
  });
  // Messages sent in the same tick leave in one write. A pipe write is a syscall (synchronous for
  // pipes on Linux), so with many requests in flight one write per message cost more than the
  // messages themselves. The queue drains on nextTick, after the microtasks that produced it.
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
    if (backedUp && handlers.backPressure && !pausedInput && waitingBytes(output) > OUTPUT_HIGH_WATER) {
      pausedInput = true;
      input.pause();
      output.once("drain", resumeInput);
    }
  };
  return {
    send(message) {
      const line = `${encodeMessage(message)}\n`;
      if (queued === "") process.nextTick(drain);
      queued += line;
    },
    flush() {
      drain();
      if (broken) return Promise.resolve();
      return new Promise((resolve) => output.write("", () => resolve()));
    },
  };
}

function waitingBytes(output: NodeJS.WritableStream): number {
  return (output as { writableLength?: number }).writableLength ?? Number.POSITIVE_INFINITY;
}

function tooLarge(max: number): JsonRpcErrorResponse {
  return errorResponse(undefined, {
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: message longer than ${max} characters`,
  });
}
