// One sandbox thread seen from the server: starts the worker (code-sandbox-worker.ts), runs one execute
// at a time on it, answers its API calls through the bridge, and terminates it when it overruns.

import { setMaxListeners } from "node:events";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { errorMessage } from "../../protocol/errors.ts";
import type { CodeBridge, CodeCallOutcome, CodeFailureKind, CodeLimits, CodeRunResult } from "./code-sandbox-types.ts";
import type { FromSandbox, ToSandbox } from "./code-sandbox-worker.ts";

/** The thread's native stack: QuickJS's own limit (MAX_STACK_BYTES) is a small part of it, see there. */
const THREAD_STACK_MB = 16;

/** How long a thread may overrun its deadline, or a cancel, before it is terminated. */
export const GRACE_MS = 1_000;

/** An execute's result, and whether its thread may run the next one. */
export type ThreadOutcome = { result: CodeRunResult; healthy: boolean };

export class SandboxThread {
  private ended: ((outcome: ThreadOutcome) => void) | undefined;
  private exited = false;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    const end = (message: string) => {
      this.exited = true;
      this.finish(failedRun(message), false);
    };
    worker.on("error", (error) => end(`The sandbox failed: ${error.message}`));
    worker.on("exit", () => end("The sandbox thread ended."));
  }

  /** A thread whose engine is loaded; rejects when the thread cannot start. */
  static start(): Promise<SandboxThread> {
    const worker = spawnWorker();
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      const onExit = (code: number) => reject(new Error(`the thread ended at start (exit code ${code})`));
      worker.once("error", onError);
      worker.once("exit", onExit);
      worker.once("message", (message: FromSandbox) => {
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (message.type === "ready") resolve(new SandboxThread(worker));
        else reject(new Error(`unexpected first message ${message.type}`));
      });
    });
  }

  run(code: string, bridge: CodeBridge, limits: CodeLimits, signal?: AbortSignal): Promise<ThreadOutcome> {
    const started = performance.now();
    const calls = new AbortController();
    // Every pending API call may listen on it (the bridge's upstream fetch does).
    setMaxListeners(limits.maxCalls + 10, calls.signal);
    const post = (message: ToSandbox) => this.worker.postMessage(message);
    const overran = (message: string) => failedRun(message, "timeout", performance.now() - started);
    return new Promise<ThreadOutcome>((resolve) => {
      let backstop = setTimeout(() => {
        const text = `Timed out: the code ran longer than ${limits.timeoutMs} ms and did not stop; its thread was ended (its logs are lost).`;
        this.kill(overran(text));
      }, limits.timeoutMs + GRACE_MS);
      const cancel = () => {
        post({ type: "cancel" });
        clearTimeout(backstop);
        backstop = setTimeout(() => this.kill(overran("The execute was cancelled; its thread was ended.")), GRACE_MS);
      };
      const onMessage = (message: FromSandbox) => {
        if (message.type === "call") this.answer(message, bridge, calls.signal, post);
        else if (message.type === "done") this.finish(message.result, !message.poisoned);
      };
      this.ended = (outcome) => {
        clearTimeout(backstop);
        calls.abort();
        signal?.removeEventListener("abort", cancel);
        this.worker.off("message", onMessage);
        this.ended = undefined;
        resolve(outcome);
      };
      this.worker.on("message", onMessage);
      signal?.addEventListener("abort", cancel, { once: true });
      if (this.exited) this.finish(failedRun("The sandbox thread ended."), false);
      else {
        post({ type: "run", code, names: [...bridge.names], limits });
        if (signal?.aborted) cancel();
      }
    });
  }

  terminate(): void {
    void this.worker.terminate();
  }

  private kill(result: CodeRunResult): void {
    this.finish(result, false);
    this.terminate();
  }

  private finish(result: CodeRunResult, healthy: boolean): void {
    this.ended?.({ result, healthy: healthy && !this.exited });
  }

  /** Runs one API call of the code on this side; a name outside `names` is refused with the bridge's reason. */
  private answer(
    message: Extract<FromSandbox, { type: "call" }>,
    bridge: CodeBridge,
    signal: AbortSignal,
    post: (message: ToSandbox) => void,
  ): void {
    const { call, name, args } = message;
    const outcome: Promise<CodeCallOutcome> = bridge.names.includes(name)
      ? Promise.resolve().then(() => bridge.call(name, args, signal))
      : Promise.resolve({ ok: false, error: { message: bridge.unavailable?.(name) ?? notExposed(name, bridge) } });
    void outcome
      .catch((error: unknown): CodeCallOutcome => ({ ok: false, error: { message: errorMessage(error) } }))
      .then((answer) => {
        if (signal.aborted) return;
        try {
          post({ type: "answer", call, outcome: answer });
        } catch (error) {
          const text = `The result of api.${name} cannot be passed to the code: ${errorMessage(error)}`;
          post({ type: "answer", call, outcome: { ok: false, error: { message: text } } });
        }
      });
  }
}

function notExposed(name: string, bridge: CodeBridge): string {
  const shown = bridge.names.length > 20 ? `${bridge.names.slice(0, 20).join(", ")}, ...` : bridge.names.join(", ");
  return `api.${name} is not available here: it is not one of the exposed tools (${shown})`;
}

/** A run that ended without a value, before or outside the engine: no logs, no calls. */
export const failedRun = (message: string, kind: CodeFailureKind = "error", ms = 0): CodeRunResult => ({
  ok: false,
  kind,
  message,
  logs: [],
  calls: 0,
  ms,
});

/**
 * The worker for this runtime: compiled JavaScript runs its .js twin; TypeScript (tsx, vitest) needs a
 * loader in the thread, and Node 20 gives a worker none of the parent's loader hooks, so the thread
 * registers tsx's before it imports the entry.
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  const options = { resourceLimits: { stackSizeMb: THREAD_STACK_MB } };
  if (!here.endsWith(".ts")) return new Worker(new URL("./code-sandbox-worker.js", here), options);
  const entry = new URL("./code-sandbox-worker.ts", here).href;
  const source = `import(${JSON.stringify(tsxApi(here))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { ...options, eval: true });
}

/**
 * tsx's ESM API: of the tsx that runs this process (`tsx src/server.ts` puts its loader in execArgv, also
 * when npx fetched it), else the one this file resolves (vitest, or `node --import tsx`).
 */
function tsxApi(here: string): string {
  const loader = process.execArgv.find((arg) => /[/\\]tsx[/\\]dist[/\\]loader\.mjs$/.test(arg));
  if (loader) return new URL("./esm/api/index.mjs", loader.startsWith("file:") ? loader : pathToFileURL(loader)).href;
  return pathToFileURL(
    createRequire(here)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
}
