/**
 * Compiles validator chunks on every core: worker threads plus the main thread, all taking the next
 * job from one queue. ajv's code generation is the slowest step of generating a large OpenAPI API, and
 * chunks are independent. Workers run validators-worker.ts through tsx, as the CLI does.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type ChunkJob, compileChunk } from "./validators-compile.ts";

const WORKER_URL = new URL("./validators-worker.ts", import.meta.url).href;
// tsx's ESM entry (its CommonJS one cannot register hooks from a worker).
const TSX_API = pathToFileURL(
  createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs"),
).href;
const BOOT = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

type Answer = { index: number; code?: string; error?: string };

/** Workers started ahead of need (warmUp), idle and not keeping the process alive. */
const warm: Worker[] = [];

function startWorker(): Worker {
  // A large young generation: ajv's code generation makes millions of short-lived objects.
  return new Worker(BOOT, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 192 } });
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

export async function compileInWorkers(jobs: ChunkJob[], header: string): Promise<string[]> {
  const results: string[] = new Array(jobs.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(availableParallelism(), jobs.length) - 1 }, () => {
    const worker = warm.pop() ?? startWorker();
    worker.ref();
    return worker;
  });
  const take = () => (next < jobs.length ? next++ : undefined);
  try {
    await Promise.all([...workers.map(runWorker), runHere()]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;

  /** Keeps two jobs queued in the worker, so it never waits for the main thread (busy compiling or
   * rendering) to hand it the next one. */
  function runWorker(worker: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const sent = new Set<number>();
      const send = () => {
        const index = take();
        if (index === undefined) return;
        sent.add(index);
        worker.postMessage({ index, job: jobs[index], header });
      };
      const lost = () => {
        // A worker that cannot start or dies (no threads, memory) costs speed, never the output.
        for (const index of sent) results[index] = compileChunk(jobs[index], header);
        sent.clear();
        resolve();
      };
      worker.on("error", lost);
      worker.on("exit", lost);
      worker.on("message", (answer: Answer) => {
        sent.delete(answer.index);
        if (answer.error !== undefined) return reject(new Error(answer.error));
        results[answer.index] = answer.code ?? "";
        send();
        if (sent.size === 0) resolve();
      });
      send();
      send();
      if (sent.size === 0) resolve();
    });
  }

  /** The main thread compiles too, yielding between jobs so the workers' answers are taken in. It
   * starts after a turn of the event loop: the rest of render comes first, the workers start at once. */
  async function runHere(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (next < jobs.length) {
      const index = next++;
      results[index] = compileChunk(jobs[index], header);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
