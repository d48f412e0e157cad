/** Worker thread for validators.ts: compiles units of the plan it is sent, claimed from the shared counter. */
import { parentPort } from "node:worker_threads";
import { claim, compileUnit, type Unit } from "./validators-compile.ts";

parentPort?.on("message", ({ units, counter }: { units: Unit[]; counter: Int32Array }) => {
  for (const index of claim(counter, units.length)) {
    try {
      parentPort?.postMessage({ index, code: compileUnit(units[index]) });
    } catch (error) {
      parentPort?.postMessage({ index, error: error instanceof Error ? error.message : String(error) });
    }
  }
  parentPort?.postMessage({ done: true });
});
