// One execute in the sandbox: a fresh QuickJS runtime + context, the prelude (api, console), the agent's
// code as an async function body, then a loop that runs QuickJS's pending jobs and waits for the host
// (API calls, the deadline, cancellation) until the top-level promise settles or a limit ends the run.

import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten";
import { errorMessage } from "../../protocol/errors.ts";
import { CODE_FILE, CODE_LINE_OFFSET, PRELUDE, PRELUDE_FILE, wrapCode } from "./code-sandbox-prelude.ts";
import type { CodeBridge, CodeCallOutcome, CodeFailureKind, CodeLimits, CodeRunResult } from "./code-sandbox-types.ts";

/**
 * QuickJS's own stack limit. Small on purpose: the engine's C frames also use the thread's native stack
 * (code-sandbox-thread.ts gives it 16 MB), and some paths (the parser, JSON.stringify) use much more of it
 * per level than QuickJS counts; and JSON.stringify's cycle check is linear in the depth, so nesting near
 * a larger limit takes seconds (128 KB: 1.4 s for one hostile stringify) where 32 KB fails in a fraction.
 * 32 KB allows about 150 levels of plain recursion; the host-side catch below covers anything that still
 * gets through.
 */
export const MAX_STACK_BYTES = 32 * 1024;

type Failure = { kind: CodeFailureKind; message: string; line?: number };
type Described = { message: string; name?: string; stack?: string; lineNumber?: number };

/** The run's outcome, and whether the engine failed on the host side (its thread must then end). */
export type SandboxOutcome = { result: CodeRunResult; poisoned: boolean };

export async function runInSandbox(
  module: QuickJSWASMModule,
  code: string,
  bridge: CodeBridge,
  limits: CodeLimits,
  stop: AbortSignal,
  started: number,
): Promise<SandboxOutcome> {
  const run = new RunState(code, bridge, limits, started);
  const onStop = () => run.fail({ kind: "error", message: "The execute was cancelled." });
  stop.addEventListener("abort", onStop, { once: true });
  if (stop.aborted) onStop();
  const timer = setTimeout(() => run.fail(run.timeout()), Math.max(0, run.deadline - performance.now()));
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  let poisoned = false;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => run.shouldInterrupt());
    context = runtime.newContext();
    if (stop.aborted) return { result: run.result(), poisoned };
    return { result: await run.execute(runtime, context), poisoned };
  } catch (error) {
    // Only host-side failures land here (QuickJS reports the code's errors as values). A native stack
    // overflow or an abort inside the wasm leaves the engine's memory in an unknown state: its thread ends.
    const overflow = error instanceof RangeError;
    // WebAssembly.RuntimeError by its name: the package compiles without the WebAssembly types.
    poisoned = overflow || (error instanceof Error && error.name === "RuntimeError");
    run.fail({
      kind: overflow ? "memory" : "error",
      message: overflow ? STACK_OVERFLOW : `The sandbox failed: ${errorMessage(error)}`,
    });
    return { result: run.result(), poisoned };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener("abort", onStop);
    run.close();
    if (!poisoned) {
      try {
        for (const deferred of run.pending) if (deferred.alive) deferred.dispose();
        context?.dispose();
        runtime?.dispose();
      } catch {
        poisoned = true;
      }
    }
  }
}

const STACK_OVERFLOW = "Stack overflow: the code nests or recurses too deeply for the sandbox's stack.";

class RunState {
  readonly deadline: number;
  readonly logs: string[] = [];
  readonly pending = new Set<QuickJSDeferredPromise>();
  private readonly calls = new AbortController();
  private logChars = 0;
  private made = 0;
  private failure: Failure | undefined;
  private value: unknown = null;
  private woken = false;
  private waiter: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly code: string,
    private readonly bridge: CodeBridge,
    private readonly limits: CodeLimits,
    private readonly started: number,
  ) {
    this.deadline = started + limits.timeoutMs;
  }

  timeout(): Failure {
    return {
      kind: "timeout",
      message: `Timed out: the code ran longer than ${this.limits.timeoutMs} ms (API calls included).`,
    };
  }

  fail(failure: Failure): void {
    this.failure ??= failure;
    this.calls.abort();
    this.wake();
  }

  shouldInterrupt(): boolean {
    if (this.failure) return true;
    if (performance.now() > this.deadline) this.fail(this.timeout());
    return this.failure !== undefined;
  }

  close(): void {
    this.closed = true;
    this.calls.abort();
  }

  result(): CodeRunResult {
    const common = { logs: this.logs, calls: this.made, ms: performance.now() - this.started };
    if (this.failure) return { ok: false, ...this.failure, ...common };
    return { ok: true, value: this.value, ...common };
  }

  async execute(runtime: QuickJSRuntime, context: QuickJSContext): Promise<CodeRunResult> {
    const helpers = this.installPrelude(context);
    try {
      const evaluated = context.evalCode(wrapCode(this.code), CODE_FILE, { type: "global" });
      if (evaluated.error) {
        this.fail(this.classify(this.describe(context, helpers.describe, evaluated.error), true));
        evaluated.error.dispose();
        return this.result();
      }
      const promise = evaluated.value;
      try {
        await this.settle(runtime, context, promise, helpers);
      } finally {
        promise.dispose();
      }
      return this.result();
    } finally {
      helpers.toJson.dispose();
      helpers.describe.dispose();
    }
  }

  private async settle(runtime: QuickJSRuntime, context: QuickJSContext, promise: QuickJSHandle, helpers: Helpers) {
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        // A job's own exceptions reject its promise; what lands here is an interrupt or the engine's limits.
        const failure = this.failure ?? this.classify(this.describe(context, helpers.describe, jobs.error), false);
        jobs.error.dispose();
        this.fail(failure);
      }
      if (this.failure) return;
      const state = context.getPromiseState(promise);
      if (state.type === "pending") {
        await this.nextWake();
        continue;
      }
      if (state.type === "rejected") {
        this.fail(this.classify(this.describe(context, helpers.describe, state.error), false));
        state.error.dispose();
        return;
      }
      try {
        this.finish(context, helpers, state.value);
      } finally {
        state.value.dispose();
      }
      return;
    }
  }

  /** The returned value as JSON, made in the sandbox; cycles and BigInts fail there, not here. */
  private finish(context: QuickJSContext, helpers: Helpers, value: QuickJSHandle): void {
    const converted = context.callFunction(helpers.toJson, context.undefined, value);
    if (converted.error) {
      const failure = this.classify(this.describe(context, helpers.describe, converted.error), false);
      converted.error.dispose();
      if (this.failure) return;
      const message = `The returned value cannot be converted to JSON: ${failure.message}`;
      this.fail(failure.kind === "error" ? { kind: "error", message } : failure);
      return;
    }
    const json = context.getString(converted.value);
    converted.value.dispose();
    const max = this.limits.maxOutputChars;
    if (json.length + this.logChars > max) {
      this.fail({
        kind: "output",
        message: `Output too large: the returned value (${json.length} characters of JSON) and the logs (${this.logChars}) exceed the limit of ${max} characters. Return less (pick the fields you need, summarize) or log less.`,
      });
      return;
    }
    this.value = JSON.parse(json);
  }

  private installPrelude(context: QuickJSContext): Helpers {
    const setup = context.unwrapResult(context.evalCode(PRELUDE, PRELUDE_FILE, { type: "global", strict: true }));
    const hostCall = context.newFunction("hostCall", (name, args) => this.hostCall(context, name, args));
    const hostLog = context.newFunction("hostLog", (line) => {
      if (context.typeof(line) === "string") this.log(context.getString(line));
    });
    const names = context.newString(JSON.stringify(this.bridge.names));
    try {
      const helpers = context.unwrapResult(context.callFunction(setup, context.undefined, hostCall, hostLog, names));
      const toJson = context.getProp(helpers, "toJson");
      const describe = context.getProp(helpers, "describe");
      helpers.dispose();
      return { toJson, describe };
    } finally {
      for (const handle of [setup, hostCall, hostLog, names]) handle.dispose();
    }
  }

  private log(line: string): void {
    if (this.failure || this.closed) return;
    const room = this.limits.maxOutputChars - this.logChars;
    if (line.length <= room) {
      this.logs.push(line);
      this.logChars += line.length;
      return;
    }
    if (room > 0) this.logs.push(line.slice(0, room));
    this.logChars = this.limits.maxOutputChars;
    this.fail({
      kind: "output",
      message: `Output too large: the logs passed ${this.limits.maxOutputChars} characters; the run was stopped and the first ${this.limits.maxOutputChars} are kept. Log less.`,
    });
  }

  private hostCall(context: QuickJSContext, nameHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
    const deferred = context.newPromise();
    this.pending.add(deferred);
    const name =
      context.typeof(nameHandle) === "string" ? context.getString(nameHandle) : String(context.dump(nameHandle));
    const args = context.typeof(argsHandle) === "string" ? context.getString(argsHandle) : "{}";
    const answer = (outcome: CodeCallOutcome) => {
      if (this.closed || !deferred.alive) return;
      const text = outcomeJson(name, outcome);
      const handle = context.newString(text);
      deferred.resolve(handle);
      handle.dispose();
      deferred.dispose();
      this.pending.delete(deferred);
      this.wake();
    };
    const refuse = (message: string) => Promise.resolve().then(() => answer({ ok: false, error: { message } }));
    // A name that is not exposed goes to the bridge too, uncounted: it refuses it with the reason.
    const exposed = this.bridge.names.includes(name);
    if (exposed && this.made >= this.limits.maxCalls) {
      const message = `Too many API calls: the limit is ${this.limits.maxCalls} per execute. Do less per execute, or split the work.`;
      void refuse(message);
      this.fail({ kind: "calls", message });
    } else {
      if (exposed) this.made += 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(args);
      } catch {
        parsed = {};
      }
      // Through a promise, so a bridge that throws synchronously rejects the call instead of the host function.
      Promise.resolve()
        .then(() => this.bridge.call(name, parsed, this.calls.signal))
        .then(answer, (error: unknown) => answer({ ok: false, error: { message: errorMessage(error) } }));
    }
    return deferred.handle;
  }

  private wake(): void {
    this.woken = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private nextWake(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiter = () => {
        this.woken = false;
        resolve();
      };
    });
  }

  private describe(context: QuickJSContext, describe: QuickJSHandle, error: QuickJSHandle): Described {
    const described = context.callFunction(describe, context.undefined, error);
    if (described.error) {
      described.error.dispose();
      return { message: "an error the sandbox could not describe" };
    }
    const text = context.getString(described.value);
    described.value.dispose();
    return JSON.parse(text) as Described;
  }

  private classify(error: Described, atParse: boolean): Failure {
    if (this.failure) return this.failure;
    const line = this.lineOf(error);
    const text = error.message;
    if (/\binterrupted\b/.test(text) && error.name === "InternalError") return this.timeout();
    if (/out of memory/i.test(text)) {
      const mb = Math.round((this.limits.memoryBytes / (1024 * 1024)) * 10) / 10;
      return { kind: "memory", message: `Out of memory: the code used more than the sandbox's ${mb} MB.`, line };
    }
    if (/stack overflow/i.test(text)) return { kind: "memory", message: STACK_OVERFLOW, line };
    if (/string too long/i.test(text))
      return {
        kind: "memory",
        message: "String too long: the code built a string longer than the engine allows.",
        line,
      };
    if (atParse && error.name === "SyntaxError") return { kind: "syntax", message: text, line };
    return { kind: "error", message: text, line };
  }

  /** The 1-based line in the agent's code: the first frame in it, less the wrapper's first line. */
  private lineOf(error: Described): number | undefined {
    const frame = new RegExp(`${CODE_FILE.replace(".", "\\.")}:(\\d+)`).exec(error.stack ?? "");
    const raw = frame ? Number(frame[1]) : error.lineNumber;
    if (raw === undefined) return undefined;
    const line = raw - CODE_LINE_OFFSET;
    return line >= 1 && line <= this.code.split("\n").length ? line : undefined;
  }
}

type Helpers = { toJson: QuickJSHandle; describe: QuickJSHandle };

/** A host answer as the JSON text the prelude parses; a value that is not JSON becomes an error. */
function outcomeJson(name: string, outcome: CodeCallOutcome): string {
  try {
    if (outcome.ok) return JSON.stringify({ ok: true, value: outcome.value === undefined ? null : outcome.value });
    return JSON.stringify({ ok: false, error: { ...outcome.error } });
  } catch (error) {
    const message = `The result of api.${name} cannot be passed to the code: ${errorMessage(error)}`;
    return JSON.stringify({ ok: false, error: { message } });
  }
}
