// STAND-IN: replaced by branch code-sandbox/code-api
// A minimal QuickJS-wasm sandbox so the code-mode wiring runs and tests on its own branch: the real
// one (branch code-sandbox) implements every limit and the hostile-code corpus. Not Node's vm, no eval.
import { getQuickJS, type QuickJSHandle, shouldInterruptAfterDeadline } from "quickjs-emscripten";
import type { CodeBridge, CodeLimits, CodeRunResult, CodeSandbox } from "./code-sandbox-types.ts";

const PRELUDE = `globalThis.api = new Proxy({}, { get: (_, name) => (args) =>
  __call(String(name), JSON.stringify(args === undefined ? {} : args)).then((t) => {
    const o = JSON.parse(t); if (o.ok) return o.value; throw o.error; }) });
globalThis.console = { log: (...a) => __log(a.map((x) => typeof x === "string" ? x : JSON.stringify(x)).join(" ")) };`;

export async function createCodeSandbox(): Promise<CodeSandbox> {
  const quickjs = await getQuickJS();
  return {
    async run(code: string, bridge: CodeBridge, limits: CodeLimits, signal?: AbortSignal): Promise<CodeRunResult> {
      const started = Date.now();
      const logs: string[] = [];
      let calls = 0;
      const runtime = quickjs.newRuntime();
      runtime.setMemoryLimit(limits.memoryBytes);
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(started + limits.timeoutMs));
      const vm = runtime.newContext();
      const abort = new AbortController();
      const done = (result: Record<string, unknown>): CodeRunResult =>
        ({ ...result, logs, calls, ms: Date.now() - started }) as CodeRunResult;
      try {
        const log = vm.newFunction("__log", (text: QuickJSHandle) => {
          logs.push(vm.getString(text));
        });
        const call = vm.newFunction("__call", (name: QuickJSHandle, args: QuickJSHandle) => {
          const deferred = vm.newPromise();
          const toolName = vm.getString(name);
          const argsJson = vm.getString(args);
          const outcome =
            ++calls > limits.maxCalls
              ? Promise.resolve({ ok: false, error: { message: `more than ${limits.maxCalls} API calls` } })
              : bridge.call(toolName, JSON.parse(argsJson), abort.signal);
          void outcome.then(
            (value) => {
              if (!vm.alive) return;
              const text = vm.newString(JSON.stringify(value));
              deferred.resolve(text);
              text.dispose();
              runtime.executePendingJobs();
            },
            () => undefined,
          );
          return deferred.handle;
        });
        vm.setProp(vm.global, "__log", log);
        vm.setProp(vm.global, "__call", call);
        log.dispose();
        call.dispose();
        vm.unwrapResult(vm.evalCode(PRELUDE)).dispose();
        const wrapped = `(async () => {\n${code}\n})().then((v) => JSON.stringify({ ok: true, value: v === undefined ? null : v }),
          (e) => JSON.stringify({ ok: false, message: e && e.message !== undefined ? String(e.message) : String(e), stack: String(e && e.stack) }))`;
        const evaluated = vm.evalCode(wrapped, "code.js");
        if (evaluated.error) {
          const error = vm.dump(evaluated.error) as { message?: string };
          evaluated.error.dispose();
          return done({ ok: false, kind: "syntax", message: String(error?.message ?? error) });
        }
        const settled = vm.resolvePromise(evaluated.value);
        evaluated.value.dispose();
        runtime.executePendingJobs();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), Math.max(0, started + limits.timeoutMs - Date.now()));
          signal?.addEventListener("abort", () => resolve("timeout"), { once: true });
        });
        const outcome = await Promise.race([settled, timeout]);
        clearTimeout(timer);
        if (outcome === "timeout") return done({ ok: false, kind: "timeout", message: "execute timed out" });
        if (outcome.error) {
          outcome.error.dispose();
          return done({ ok: false, kind: "timeout", message: "execute was interrupted (time limit)" });
        }
        const answer = JSON.parse(vm.getString(outcome.value)) as {
          ok: boolean;
          value?: unknown;
          message?: string;
          stack?: string;
        };
        outcome.value.dispose();
        if (answer.ok) return done({ ok: true, value: answer.value });
        if (answer.message === "interrupted")
          return done({ ok: false, kind: "timeout", message: `execute ran over its ${limits.timeoutMs} ms limit` });
        const line = /code\.js:(\d+)/.exec(answer.stack ?? "")?.[1];
        return done({
          ok: false,
          kind: "error",
          message: answer.message ?? "error",
          ...(line ? { line: Number(line) - 1 } : {}),
        });
      } finally {
        abort.abort();
        vm.dispose();
        runtime.dispose();
      }
    },
    dispose() {},
  };
}
