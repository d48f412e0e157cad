// The sandbox's thread: one execute at a time runs here (code-sandbox-run.ts), never on the server's
// thread, so code that keeps QuickJS busy (a loop, a regular expression that backtracks for ever) holds
// only this thread, and the server (code-sandbox.ts) can end it with `terminate()` at the deadline.
// API calls cross to the server as messages: the bridge, and the credentials, stay there.

import { parentPort } from "node:worker_threads";
import { newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";
import { runInSandbox } from "./code-sandbox-run.ts";
import type { CodeCallOutcome, CodeLimits, CodeRunResult } from "./code-sandbox-types.ts";

/** The server's messages to this thread. */
export type ToSandbox =
  | { type: "run"; code: string; names: string[]; limits: CodeLimits }
  | { type: "answer"; call: number; outcome: CodeCallOutcome }
  | { type: "cancel" };

/** This thread's messages to the server; `poisoned` asks it to end the thread (see code-sandbox-run.ts). */
export type FromSandbox =
  | { type: "ready" }
  | { type: "call"; call: number; name: string; args: unknown }
  | { type: "done"; result: CodeRunResult; poisoned: boolean };

const port = parentPort;
if (port) {
  const post = (message: FromSandbox) => port.postMessage(message);
  const waiting = new Map<number, (outcome: CodeCallOutcome) => void>();
  let stop = new AbortController();
  let calls = 0;
  // Loaded once, up front, so that the first execute on this thread is already a warm one.
  const engine: Promise<QuickJSWASMModule> = newQuickJSWASMModule();

  const run = async (message: Extract<ToSandbox, { type: "run" }>) => {
    stop = new AbortController();
    const module = await engine;
    const bridge = {
      names: message.names,
      call: (name: string, args: unknown) =>
        new Promise<CodeCallOutcome>((resolve) => {
          calls += 1;
          waiting.set(calls, resolve);
          post({ type: "call", call: calls, name, args });
        }),
    };
    const { result, poisoned } = await runInSandbox(
      module,
      message.code,
      bridge,
      message.limits,
      stop.signal,
      performance.now(),
    );
    waiting.clear();
    post({ type: "done", result, poisoned });
  };

  port.on("message", (message: ToSandbox) => {
    if (message.type === "run") void run(message);
    else if (message.type === "cancel") stop.abort();
    else {
      waiting.get(message.call)?.(message.outcome);
      waiting.delete(message.call);
    }
  });
  // A thread whose engine cannot load ends with the error, which the server reports.
  void engine.then(() => post({ type: "ready" }));
}
