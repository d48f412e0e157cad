/** Worker thread for validators.ts: compiles chunks of the plan it is sent, claimed from the shared counter. */
import { parentPort } from "node:worker_threads";
import { claim, compileChunkText, type PlanText } from "./validators-compile.ts";

parentPort?.on("message", ({ plan, counter }: { plan: PlanText; counter: Int32Array }) => {
  for (const index of claim(counter, plan.jobs.length)) {
    try {
      parentPort?.postMessage({ index, code: compileChunkText(plan, index) });
    } catch (error) {
      parentPort?.postMessage({ index, error: error instanceof Error ? error.message : String(error) });
    }
  }
  parentPort?.postMessage({ done: true });
});
