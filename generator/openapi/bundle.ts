/**
 * `$ref` resolution through @apidevtools/swagger-parser (json-schema-ref-parser underneath), kept
 * synchronous for the rest of the pipeline: the parser is promise-based, so it runs in a worker thread
 * while this thread waits on an Atomics cell. `bundle` (not `dereference`) pulls external files into
 * the one document and leaves every `$ref` internal, so recursive schemas stay finite.
 *
 * Network `$ref`s are refused unless `allowRemote` is set: a spec must not make mcpgen fetch URLs
 * (SSRF). Local file refs resolve relative to the spec file.
 */
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

export type BundleOutcome = { ok: true; document: unknown } | { ok: false; errors: BundleError[] };
export type BundleError = { message: string; pointer?: string; remote?: boolean };

// Plain JavaScript, so the worker needs no TypeScript loader whatever started this process.
const WORKER = `
const { workerData } = require("node:worker_threads");
const { port, cell, file, document, allowRemote, parserPath } = workerData;
const SwaggerParser = require(parserPath);
const remote = [];
const refuse = {
  order: 1,
  canRead: /^https?:/i,
  read(info) { remote.push(info.url); throw new Error("network $ref refused: " + info.url); },
};
const options = {
  resolve: allowRemote ? { external: true } : { external: true, http: false, refuse },
  continueOnError: true,
};
SwaggerParser.bundle(file, document, options).then(
  (bundled) => finish({ ok: true, document: bundled }),
  (error) => {
    const list = Array.isArray(error && error.errors) ? error.errors : [error];
    finish({ ok: false, errors: list.map((e) => ({
      message: String((e && e.message) || e).split("\\n")[0],
      pointer: Array.isArray(e && e.path) ? "/" + e.path.map((p) => String(p).replace(/~/g, "~0").replace(/\\//g, "~1")).join("/") : undefined,
      remote: remote.some((url) => String(e && e.message).includes(url)),
    })) });
  },
);
function finish(result) {
  port.postMessage(result);
  Atomics.store(cell, 0, 1);
  Atomics.notify(cell, 0);
}
`;

export function bundleSync(file: string, document: unknown, allowRemote: boolean): BundleOutcome {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const parserPath = fileURLToPath(import.meta.resolve("@apidevtools/swagger-parser"));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { port: port2, cell, file, document, allowRemote, parserPath },
    transferList: [port2],
    // The parent's loader flags (tsx) are not needed and would slow the worker's start.
    execArgv: [],
  });
  let failure: Error | undefined;
  worker.on("error", (error) => {
    failure = error;
  });
  // Wait in slices so a worker that dies without answering cannot hang the generator.
  const deadline = Date.now() + 10 * 60_000;
  while (Atomics.load(cell, 0) === 0 && Date.now() < deadline) {
    Atomics.wait(cell, 0, 0, 50);
    if (failure) break;
  }
  const message = receiveMessageOnPort(port1);
  void worker.terminate();
  port1.close();
  if (message) return message.message as BundleOutcome;
  return { ok: false, errors: [{ message: failure?.message ?? "the $ref resolver did not answer" }] };
}
