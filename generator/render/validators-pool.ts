/**
 * Compiles validator units (validators-compile.ts) on every core: worker threads plus the main thread, all
 * taking the next unit from one shared counter (so none waits for another to hand it work). ajv's code
 * generation is the slowest step of generating a large OpenAPI API, and units are independent. Workers run
 * validators-worker.ts through tsx, as the CLI does.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { claim, compileUnit, type PackedUnits, unitAt } from "./validators-compile.ts";

const WORKER_URL = new URL("./validators-worker.ts", import.meta.url).href;
// tsx's ESM entry (its CommonJS one cannot register hooks from a worker).
const TSX_API = pathToFileURL(
  createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs"),
).href;
const BOOT = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

/** A worker's answer: the code (or the error) of the unit at `position` in the list it was sent. */
type Answer = { position: number; code?: string; error?: string } | { done: true };

/** Workers started ahead of need (warmUp), idle and not keeping the process alive. */
const warm: Worker[] = [];

function startWorker(): Worker {
  // A young generation 4× V8's default: ajv's code generation makes millions of short-lived objects. It
  // was 192 MB; in paired runs 64 compiles as fast (GitHub, empty cache: 11.6-14.1 s against 11.8-14.6 s)
  // and the run peaks 50-80 MB lower (438-459 against 509-523 MB), the worker's heap being most of a peak.
  return new Worker(BOOT, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 64 } });
}

/**
 * Starts the compile workers now, for a spec large enough to need them: a worker takes ~0.4 s to load
 * tsx and ajv, which then overlaps reading and checking the spec instead of delaying the compile.
 */
export function warmUp(): void {
  while (warm.length < availableParallelism() - 1) {
    const worker = startWorker();
    worker.unref();
    warm.push(worker);
  }
}

/**
 * Compiles the units `indices` names on the main thread and the workers, which claim them from one
 * counter. Each unit's code goes to `done` as it arrives, once, in no set order: none is kept here.
 */
export async function compileInWorkers(
  units: PackedUnits,
  indices: number[],
  done: (index: number, code: string) => void,
): Promise<void> {
  const count = indices.length;
  const answered: boolean[] = new Array(count).fill(false);
  const take = (position: number, code: string) => {
    answered[position] = true;
    done(indices[position], code);
  };
  const compile = (position: number) => compileUnit(unitAt(units, indices[position]));
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from({ length: Math.min(availableParallelism(), count) - 1 }, () => {
    const worker = warm.pop() ?? startWorker();
    worker.ref();
    return worker;
  });
  let failure: string | undefined;
  const finished = workers.map(
    (worker) =>
      new Promise<void>((resolve) => {
        // A worker that cannot start or dies (no threads, memory) costs speed, never the output: the
        // units it took and did not answer are compiled below.
        worker.on("error", () => resolve());
        worker.on("exit", () => resolve());
        worker.on("message", (answer: Answer) => {
          if ("done" in answer) resolve();
          else if (answer.error !== undefined) failure ??= answer.error;
          else if (answer.code !== undefined) take(answer.position, answer.code);
        });
        worker.postMessage({ units, indices, counter });
      }),
  );
  try {
    // The rest of render runs first (a turn of the event loop); the workers have started meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    for (const position of claim(counter, count)) take(position, compile(position));
    await Promise.all(finished);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  if (failure !== undefined) throw new Error(failure);
  answered.forEach((yes, position) => {
    if (!yes) take(position, compile(position));
  });
}
