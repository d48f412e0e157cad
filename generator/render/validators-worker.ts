/** Worker thread for validators.ts: compiles the chunk jobs it is sent, one message per job. */
import { parentPort } from "node:worker_threads";
import { type ChunkJob, compileChunk } from "./validators-compile.ts";

parentPort?.on("message", ({ index, job, header }: { index: number; job: ChunkJob; header: string }) => {
  try {
    parentPort?.postMessage({ index, code: compileChunk(job, header) });
  } catch (error) {
    parentPort?.postMessage({ index, error: error instanceof Error ? error.message : String(error) });
  }
});
