// Code mode's sandbox: the agent's code runs in QuickJS compiled to WebAssembly (quickjs-emscripten),
// with its own heap, no host objects and no module loader: never Node's `vm`, never eval/Function here.
// Each run gets a fresh runtime + context (nothing leaks between executes), disposed on every path.
//
// Limits (CodeLimits): wall time by an interrupt handler (sync loops) and a host timer (time spent
// waiting on API calls, whose AbortSignal is then aborted); memory by the runtime's memory limit; a
// small stack (see MAX_STACK_BYTES); calls counted; logs + result JSON measured against maxOutputChars.

import { newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";
import { runInSandbox } from "./code-sandbox-run.ts";
import type { CodeBridge, CodeLimits, CodeRunResult, CodeSandbox } from "./code-sandbox-types.ts";

/**
 * The wasm module, loaded once per process on first use. It is dropped (and reloaded by the next run)
 * when the engine fails on the host side (a native stack overflow or an abort inside the wasm), since its
 * memory can then no longer be trusted.
 */
let loading: Promise<QuickJSWASMModule> | undefined;

function loadModule(): Promise<QuickJSWASMModule> {
  loading ??= newQuickJSWASMModule().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export async function createCodeSandbox(): Promise<CodeSandbox> {
  await loadModule();
  const active = new Set<AbortController>();
  let disposed = false;
  return {
    async run(code: string, bridge: CodeBridge, limits: CodeLimits, signal?: AbortSignal): Promise<CodeRunResult> {
      const started = performance.now();
      if (disposed) return { ok: false, kind: "error", message: "The sandbox is closed.", logs: [], calls: 0, ms: 0 };
      const module = await loadModule();
      const stop = new AbortController();
      active.add(stop);
      const onAbort = () => stop.abort();
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) stop.abort();
      try {
        const { result, poisoned } = await runInSandbox(module, code, bridge, limits, stop.signal, started);
        if (poisoned && loading && (await loading.catch(() => undefined)) === module) loading = undefined;
        return result;
      } finally {
        signal?.removeEventListener("abort", onAbort);
        active.delete(stop);
      }
    },
    dispose() {
      disposed = true;
      for (const stop of active) stop.abort();
    },
  };
}
