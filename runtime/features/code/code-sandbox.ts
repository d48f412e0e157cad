// Code mode's sandbox: the agent's code runs in QuickJS compiled to WebAssembly (quickjs-emscripten),
// with its own heap, no host objects and no module loader: never Node's `vm`, never eval/Function here.
// Each execute runs on a worker thread (code-sandbox-worker.ts) in a fresh QuickJS runtime + context,
// so nothing leaks between executes and a busy engine never holds the server's thread.
//
// Limits (CodeLimits) are kept inside the thread (an interrupt handler, a memory limit, a small stack,
// counted calls, measured output); this side adds the backstop: a thread that has not answered
// GRACE_MS after the deadline (or after a cancel) is terminated and replaced. At most `threads`
// executes run at once (each thread has its own wasm memory); the others wait for a free thread, up to
// their own timeout and GRACE_MS.

import { availableParallelism } from "node:os";
import { errorMessage } from "../../protocol/errors.ts";
import { failedRun, GRACE_MS, SandboxThread } from "./code-sandbox-thread.ts";
import type { CodeBridge, CodeLimits, CodeRunResult, CodeSandbox } from "./code-sandbox-types.ts";

export type CodeSandboxOptions = {
  /** Executes that run at once, one thread each (default: the cores, at most 4). */
  threads?: number;
};

export const defaultSandboxThreads = (): number => Math.max(1, Math.min(4, availableParallelism()));

// long: one thread pool, whose acquire, release and close share its idle, busy and waiting state
export async function createCodeSandbox(options: CodeSandboxOptions = {}): Promise<CodeSandbox> {
  const max = options.threads ?? defaultSandboxThreads();
  const idle: SandboxThread[] = [];
  const busy = new Set<SandboxThread>();
  const waiting: ((thread: SandboxThread | undefined) => void)[] = [];
  let started = 0;
  let closed = false;

  const release = (thread: SandboxThread, healthy: boolean) => {
    if (!healthy || closed) {
      thread.terminate();
      started -= 1;
      // A replacement is made on demand, for the next waiting execute if there is one.
      if (!closed && waiting.length > 0) void spawn().then((fresh) => release(fresh, true), failWaiting);
      return;
    }
    const next = waiting.shift();
    if (next) next(thread);
    else idle.push(thread);
  };
  const failWaiting = () => {
    for (const next of waiting.splice(0)) next(undefined);
  };
  const spawn = async (): Promise<SandboxThread> => {
    started += 1;
    try {
      return await SandboxThread.start();
    } catch (error) {
      started -= 1;
      throw error;
    }
  };
  const acquire = (limits: CodeLimits, signal?: AbortSignal): Promise<SandboxThread | string> => {
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    if (started < max) return spawn();
    return new Promise((resolve) => {
      const give = (thread: SandboxThread | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", cancel);
        resolve(thread ?? "The sandbox could not start a thread.");
      };
      const leave = (why: string) => {
        waiting.splice(waiting.indexOf(give), 1);
        signal?.removeEventListener("abort", cancel);
        resolve(why);
      };
      const cancel = () => leave("The execute was cancelled.");
      // Long enough for a running execute with the same limits to end: one ahead never makes it fail.
      const patience = limits.timeoutMs + GRACE_MS;
      const busyText = `The server is busy: ${max} executes are running and none ended within ${patience} ms. Try again.`;
      const timer = setTimeout(() => leave(busyText), patience);
      signal?.addEventListener("abort", cancel, { once: true });
      waiting.push(give);
    });
  };

  // The first thread is started now, so that the engine is loading before the first execute needs it.
  release(await spawn(), true);
  return {
    async run(code: string, bridge: CodeBridge, limits: CodeLimits, signal?: AbortSignal): Promise<CodeRunResult> {
      if (closed) return failedRun("The sandbox is closed.");
      let thread: SandboxThread | string;
      try {
        thread = await acquire(limits, signal);
      } catch (error) {
        return failedRun(`The sandbox could not start: ${errorMessage(error)}`);
      }
      if (typeof thread === "string") return failedRun(thread);
      busy.add(thread);
      const { result, healthy } = await thread.run(code, bridge, limits, signal);
      busy.delete(thread);
      release(thread, healthy);
      return result;
    },
    dispose() {
      closed = true;
      failWaiting();
      // A running execute ends with "The sandbox thread ended."
      for (const thread of [...idle.splice(0), ...busy]) thread.terminate();
    },
  };
}
