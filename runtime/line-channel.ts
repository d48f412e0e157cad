// Newline-delimited JSON over a pair of byte streams (the stdio framing).
import { StringDecoder } from "node:string_decoder";
import { decodeMessage, encodeMessage } from "./codec.ts";
import type { JsonRpcErrorResponse, JsonRpcMessage } from "./types.ts";

export type LineChannelHandlers = {
  onMessage: (message: JsonRpcMessage) => void;
  /** A line that is not a valid JSON-RPC message; the error response is ready to send back. */
  onInvalid: (error: JsonRpcErrorResponse, line: string) => void;
  onEnd: () => void;
};

export type LineChannel = { send(message: JsonRpcMessage): void; flush(): Promise<void> };

export function openLineChannel(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handlers: LineChannelHandlers,
): LineChannel {
  const decoder = new StringDecoder("utf8");
  let buffered = "";
  const processLine = (raw: string) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    const decoded = decodeMessage(line);
    if (decoded.ok) handlers.onMessage(decoded.message);
    else handlers.onInvalid(decoded.error, line);
  };
  input.on("data", (chunk: Buffer | string) => {
    buffered += typeof chunk === "string" ? chunk : decoder.write(chunk);
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      processLine(line);
      newline = buffered.indexOf("\n");
    }
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    processLine(buffered + decoder.end());
    buffered = "";
    handlers.onEnd();
  };
  input.on("end", end);
  input.on("close", end);
  input.on("error", end);
  return {
    send(message) {
      output.write(`${encodeMessage(message)}\n`);
    },
    flush() {
      return new Promise((resolve) => output.write("", () => resolve()));
    },
  };
}
