// SEAM for code mode (issue #15): the contract between the sandbox (code-sandbox.ts, a QuickJS-wasm
// isolate), the typed API docs (code-api.ts) and the two code-mode tools (code-mode.ts). Types only.
import type { CodeLimits } from "../../package/feature.ts";

export type { CodeLimits };

export const CODE_LIMIT_DEFAULTS: CodeLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 50,
  maxOutputChars: 1_000_000,
};

/** What the sandbox may reach: `api.<name>(args)` inside it calls `call(name, args)` on the host. */
export type CodeBridge = {
  /** Tool names exposed as `api.<name>` (after --toolsets / --read-only). */
  names: readonly string[];
  /**
   * Runs the tool on the host (validation, auth, upstream, response budget) and gives its result: the
   * structuredContent, else the text; `isError` results reject inside the sandbox with `{ status, message }`.
   */
  call(name: string, args: unknown, signal: AbortSignal): Promise<CodeCallOutcome>;
  /** Why `api.<name>` is not among `names` (say, --read-only), for the code's error; a generic reason without it. */
  unavailable?(name: string): string;
};

export type CodeCallOutcome = { ok: true; value: unknown } | { ok: false; error: { status?: number; message: string } };

/** Why an execute ended without a value. */
export type CodeFailureKind = "error" | "timeout" | "memory" | "calls" | "output" | "syntax";

export type CodeRunResult =
  | { ok: true; value: unknown; logs: string[]; calls: number; ms: number }
  | {
      ok: false;
      kind: CodeFailureKind;
      message: string;
      /** 1-based line in the agent's code, when known. */
      line?: number;
      logs: string[];
      calls: number;
      ms: number;
    };

/** The sandbox: one per server, each `run` in a fresh context on a worker thread (nothing leaks between executes). */
export type CodeSandbox = {
  run(code: string, bridge: CodeBridge, limits: CodeLimits, signal?: AbortSignal): Promise<CodeRunResult>;
  dispose(): void;
};
