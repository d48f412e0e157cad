/** Worker thread for validators.ts: compiles the units it is sent, claimed from the shared counter. */
import { parentPort } from "node:worker_threads";
import { claim, compileUnit, type PackedUnits, unitAt } from "./validators-compile.ts";

type Work = { units: PackedUnits; indices: number[]; counter: Int32Array };

parentPort?.on("message", ({ units, indices, counter }: Work) => {
  for (const position of claim(counter, indices.length)) {
    try {
      parentPort?.postMessage({ position, code: compileUnit(unitAt(units, indices[position])) });
    } catch (error) {
      parentPort?.postMessage({ position, error: error instanceof Error ? error.message : String(error) });
    }
  }
  parentPort?.postMessage({ done: true });
});
