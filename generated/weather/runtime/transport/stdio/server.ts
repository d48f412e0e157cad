// The stdio transport, server side: newline-delimited JSON on stdin/stdout; ends on stdin EOF or SIGTERM.
import { JsonRpcPeer } from "../../protocol/peer.ts";
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, Result } from "../../protocol/types.ts";
import { LazyAbort } from "../../server/deadlines.ts";
import type { McpServer } from "../../server/server.ts";
import { LegacySession } from "../../server/session.ts";
import type { RequestChannel } from "../../server/types.ts";
import { openLineChannel } from "./line-channel.ts";

export type StdioServerOptions = {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  exitOnClose?: boolean; // exit once the connection ends (default: true on the real stdin/stdout)
};

export type StdioServerHandle = { close(): Promise<void>; closed: Promise<void> };

export function serveStdio(server: McpServer, options: StdioServerOptions = {}): StdioServerHandle {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const usesProcessStreams = output === process.stdout;
  if (usesProcessStreams) {
    // Anything printed with console.log would corrupt the protocol stream: it goes to stderr.
    const toStderr = (...args: unknown[]) => console.error(...args);
    Object.assign(console, { log: toStderr, info: toStderr, debug: toStderr });
  }
  const exitOnClose = options.exitOnClose ?? usesProcessStreams;
  const send = (message: JsonRpcMessage) => channel.send(message);
  const session = new LegacySession("stdio", send);
  const peer: JsonRpcPeer = new JsonRpcPeer({
    send,
    // Stdio has no per-request stream: cancellation always arrives as notifications/cancelled.
    onLazyRequest: (request, abort) =>
      server.handleRequest(request, new StdioRequestChannel(abort, session, send, peer)),
    onNotification: (message) =>
      server.handleNotification(message, new StdioRequestChannel(new LazyAbort(), session, send, peer)),
    announceCancellation: true,
  });
  const channel = openLineChannel(input, output, {
    onMessage: (message) => {
      session.lastActivity = Date.now();
      peer.receive(message);
    },
    onInvalid: (error) => channel.send(error),
    onEnd: () => void close(),
    // A client that never reads stdout must not make us queue answers without bound (SECURITY.md).
    backPressure: true,
  });
  const stopChanges = server.changes.subscribe((change) => session.deliverChange(change));
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      process.off("SIGTERM", onSigterm);
      stopChanges();
      const ended = server.close();
      // Let gracefully ended subscriptions write their final responses before in-flight work is aborted.
      await new Promise((resolve) => setImmediate(resolve));
      peer.close();
      await channel.flush();
      resolveClosed();
      await ended;
      if (exitOnClose) process.exit(0);
    })();
    return closing;
  };
  const onSigterm = () => void close();
  process.on("SIGTERM", onSigterm);
  return { close, closed };
}

/** A class rather than an object of closures: one allocation per request, and no AbortSignal unless read. */
class StdioRequestChannel implements RequestChannel {
  readonly principal = "stdio";

  constructor(
    readonly cancellation: LazyAbort,
    readonly session: LegacySession,
    private readonly send: (message: JsonRpcMessage) => void,
    private readonly peer: JsonRpcPeer,
  ) {}

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  notify(message: JsonRpcNotification): void {
    this.send(message);
  }

  request(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<Result> {
    return this.peer.request(method, params, { signal });
  }
}
