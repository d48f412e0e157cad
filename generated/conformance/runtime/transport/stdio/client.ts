// The stdio transport, client side: spawns the server and speaks newline-delimited JSON over its
// stdin/stdout. Shutdown follows the spec: close stdin, wait, then SIGTERM, then SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as wait } from "node:timers/promises";
import { type ClientTransport, type IncomingHandlers, TransportError } from "../../client/transport.ts";
import { JsonRpcPeer } from "../../protocol/peer.ts";
import { openLineChannel } from "./line-channel.ts";

export type StdioTarget = { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };

const EXIT_GRACE_MS = 2_000;

export function spawnStdioTransport(target: StdioTarget, defaultTimeoutMs?: number): ClientTransport {
  const child = spawn(target.command, target.args ?? [], {
    cwd: target.cwd,
    env: { ...process.env, ...target.env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let handlers: IncomingHandlers | undefined;
  const peer = new JsonRpcPeer({
    send: (message) => channel.send(message),
    onRequest: (request, signal) =>
      handlers?.onRequest(request, signal) ?? Promise.reject(new Error("Client is not ready")),
    onNotification: (message) => handlers?.onNotification(message),
    defaultTimeoutMs,
  });
  const channel = openLineChannel(child.stdout as NodeJS.ReadableStream, child.stdin as NodeJS.WritableStream, {
    onMessage: (message) => peer.receive(message),
    onInvalid: () => {}, // a server that prints garbage is broken; we ignore the line rather than answer it
    onEnd: () => peer.close(new TransportError("The server closed its stdout")),
  });
  child.stdin?.on("error", () => {}); // EPIPE after the child died surfaces through the peer instead
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("error", (error) => peer.close(new TransportError(`Could not start the server: ${error.message}`)));

  return {
    kind: "stdio",
    setIncomingHandlers(next) {
      handlers = next;
    },
    setProtocol() {},
    request: (method, params, options = {}) => peer.request(method, params, options),
    async notify(method, params) {
      peer.notify(method, params);
    },
    async close() {
      peer.close(new TransportError("Client closed"));
      await stopChild(child, exited);
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  if (await settlesWithin(exited, EXIT_GRACE_MS)) return;
  child.kill("SIGTERM");
  if (await settlesWithin(exited, EXIT_GRACE_MS)) return;
  child.kill("SIGKILL");
  await exited;
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), wait(ms, false, { ref: false })]);
}
