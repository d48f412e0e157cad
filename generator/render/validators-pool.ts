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

export async function compileInWorkers(jobs: ChunkJob[], header: string): Promise<string[]> {
  const results: string[] = new Array(jobs.length);
  let next = 0;
  const workers = Array.from(
    { length: Math.min(availableParallelism(), jobs.length) - 1 },
    // A large young generation: ajv's code generation makes millions of short-lived objects.
    () => new Worker(BOOT, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 192 } }),
  );
  try {
    await Promise.all([
      ...workers.map((worker) => runWorker(worker, () => (next < jobs.length ? next++ : undefined))),
      runHere(),
    ]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;

  async function runWorker(worker: Worker, take: () => number | undefined): Promise<void> {
    for (let index = take(); index !== undefined; index = take()) {
      let answer: Answer;
      try {
        answer = await ask(worker, index);
      } catch {
        // A worker that cannot start or dies (no threads, memory) costs speed, never the output.
        results[index] = compileChunk(jobs[index], header);
        return;
      }
      if (answer.error !== undefined) throw new Error(answer.error);
      results[index] = answer.code ?? "";
    }
  }

  function ask(worker: Worker, index: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once("error", onError);
      worker.once("message", (answer: Answer) => {
        worker.off("error", onError);
        resolve(answer);
      });
      worker.postMessage({ index, job: jobs[index], header });
    });
  }

  /** The main thread compiles too, yielding between jobs so the workers' answers are taken in. */
  async function runHere(): Promise<void> {
    while (next < jobs.length) {
      const index = next++;
      results[index] = compileChunk(jobs[index], header);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
