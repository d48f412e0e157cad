/**
 * `$ref` resolution through @apidevtools/swagger-parser (json-schema-ref-parser underneath), kept
 * synchronous for the rest of the pipeline: the parser is promise-based, so it runs in a worker thread
 * while this thread waits on an Atomics cell. `bundle` (not `dereference`) pulls external files into
 * the one document and leaves every `$ref` internal, so recursive schemas stay finite.
 *
 * The parser's own file and http resolvers are switched off. Ours ask this thread, which owns the
 * rules and the byte budget (ref-access.ts), before every read: files are read here, synchronously,
 * while the worker waits; URLs are fetched in the worker (this thread cannot wait on a socket), one at
 * a time, each hop of a redirect checked again, the body cut at the bytes left, the whole within a
 * time limit.
 */
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Code } from "../diagnostics/catalog.ts";
import { MAX_REF_REDIRECTS, RefAccess, type RefPolicy } from "./ref-access.ts";

export type BundleOutcome = { ok: true; document: unknown } | { ok: false; errors: BundleError[] };
export type BundleError = { message: string; pointer?: string; code?: Code; hint?: string };

// Plain JavaScript, so the worker needs no TypeScript loader whatever started this process.
const WORKER = `
const { workerData } = require("node:worker_threads");
const { port, cell, file, document, parserPath, maxRedirects } = workerData;
const SwaggerParser = require(parserPath);

// Requests to the main thread, answered in order of their ids.
let nextId = 0;
const waiting = new Map();
port.on("message", (reply) => { waiting.get(reply.id)(reply); waiting.delete(reply.id); });
function ask(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    port.postMessage({ ...request, id });
    Atomics.notify(cell, 0);
  });
}

// The refusals made, by the URL the parser asked for: its errors lose our messages.
const refusals = new Map();
function refuse(url, reply) {
  refusals.set(url, reply);
  throw new Error(reply.message);
}

// One read at a time, so the byte budget the main thread hands out is never spent twice.
let queue = Promise.resolve();
function serial(task) {
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  return run;
}

// The parser tries the next resolver that can read a URL when one fails, so each URL has exactly one.
const isLocal = (url) => /^file:/i.test(url) || !/^[a-z][a-z0-9+.-]*:/i.test(url);
const isRemote = (url) => /^https?:/i.test(url);
const local = {
  order: 1,
  canRead: (info) => isLocal(info.url),
  read: (info) => serial(async () => {
    const reply = await ask({ type: "file", url: info.url });
    if (!reply.ok) refuse(info.url, reply);
    return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  }),
};

const remote = {
  order: 2,
  canRead: (info) => isRemote(info.url),
  read: (info) => serial(() => fetchBounded(info.url)),
};

// Whatever else a $ref names (ftp:, data:, mailto:...) is refused by name, not left unmatched.
const other = {
  order: 3,
  canRead: (info) => !isLocal(info.url) && !isRemote(info.url),
  read: (info) => refuse(info.url, { code: "OPENAPI_REF_UNRESOLVED", message: "$ref '" + info.url + "': only files and http(s) URLs are read" }),
};

async function fetchBounded(url) {
  let current = url;
  let controller;
  let timer;
  try {
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const check = await ask({ type: "remote", url: current });
      if (!check.ok) refuse(url, { ...check, message: current === url ? check.message : check.message + " (redirected from " + url + ")" });
      if (!controller) {
        controller = new AbortController();
        timer = setTimeout(() => controller.abort(), check.timeoutMs);
      }
      const response = await fetch(current, { redirect: "manual", signal: controller.signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        refuse(url, { code: "OPENAPI_REF_UNRESOLVED", message: "$ref '" + url + "': HTTP " + response.status });
      }
      const tooLarge = () => ask({ type: "too-large", url });
      if (Number(response.headers.get("content-length")) > check.left) {
        await response.body?.cancel();
        refuse(url, await tooLarge());
      }
      const chunks = [];
      let total = 0;
      if (response.body) {
        for await (const chunk of response.body) {
          total += chunk.byteLength;
          if (total > check.left) {
            controller.abort();
            refuse(url, await tooLarge());
          }
          chunks.push(chunk);
        }
      }
      // The main thread counts the bytes and parses them with mcpgen's own reader, as it does files.
      const parsed = await ask({ type: "body", url, body: Buffer.concat(chunks, total) });
      if (!parsed.ok) refuse(url, parsed);
      return Buffer.from(parsed.bytes.buffer, parsed.bytes.byteOffset, parsed.bytes.byteLength);
    }
    refuse(url, { code: "OPENAPI_REF_UNRESOLVED", message: "$ref '" + url + "': more than " + maxRedirects + " redirects" });
  } catch (error) {
    if (refusals.has(url)) throw error;
    if (controller && controller.signal.aborted)
      refuse(url, { code: "REF_TIMEOUT", message: "$ref '" + url + "' did not arrive within the time limit" });
    const cause = error && error.cause && error.cause.code ? " (" + error.cause.code + ")" : "";
    refuse(url, { code: "OPENAPI_REF_UNRESOLVED", message: "$ref '" + url + "': cannot fetch it" + cause });
  } finally {
    clearTimeout(timer);
  }
}

const options = {
  resolve: { external: true, file: false, http: false, local, remote, other },
  continueOnError: true,
};
SwaggerParser.bundle(file, document, options).then(
  (bundled) => finish({ ok: true, document: bundled }),
  (error) => {
    const list = Array.isArray(error && error.errors) ? error.errors : [error];
    finish({ ok: false, errors: list.map((e) => {
      const message = String((e && e.message) || e).split("\\n")[0];
      const refusal = refusals.get(e && e.source) || [...refusals.entries()].find(([url]) => message.includes(url))?.[1];
      return {
        message: refusal ? refusal.message : message,
        pointer: Array.isArray(e && e.path) ? "/" + e.path.map((p) => String(p).replace(/~/g, "~0").replace(/\\//g, "~1")).join("/") : undefined,
        ...(refusal ? { code: refusal.code } : {}),
        ...(refusal && refusal.hint ? { hint: refusal.hint } : {}),
      };
    }) });
  },
);
function finish(result) {
  port.postMessage({ type: "done", result });
  Atomics.store(cell, 0, 1);
  Atomics.notify(cell, 0);
}
`;

type Request =
  | { type: "file"; id: number; url: string }
  | { type: "remote"; id: number; url: string }
  | { type: "too-large"; id: number; url: string }
  | { type: "body"; id: number; url: string; body: Uint8Array }
  | { type: "done"; result: BundleOutcome };

export function bundleSync(file: string, document: unknown, policy: RefPolicy, alreadyRead: number): BundleOutcome {
  const access = new RefAccess(policy, alreadyRead);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const parserPath = fileURLToPath(import.meta.resolve("@apidevtools/swagger-parser"));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { port: port2, cell, file, document, parserPath, maxRedirects: MAX_REF_REDIRECTS },
    transferList: [port2],
    // The parent's loader flags (tsx) are not needed and would slow the worker's start.
    execArgv: [],
  });
  let failure: Error | undefined;
  worker.on("error", (error) => {
    failure = error;
  });
  let outcome: BundleOutcome | undefined;
  // Wait in slices, answering the worker's questions, so a worker that dies cannot hang the generator.
  const deadline = Date.now() + 10 * 60_000;
  while (!outcome && !failure && Date.now() < deadline) {
    Atomics.wait(cell, 0, 0, 50);
    for (let message = receiveMessageOnPort(port1); message; message = receiveMessageOnPort(port1)) {
      const request = message.message as Request;
      if (request.type === "done") outcome = request.result;
      else if (request.type === "file") port1.postMessage({ id: request.id, ...access.readFile(request.url) });
      else if (request.type === "remote") port1.postMessage({ id: request.id, ...access.checkRemote(request.url) });
      else if (request.type === "body")
        port1.postMessage({ id: request.id, ...access.remoteBody(request.url, request.body) });
      else port1.postMessage({ id: request.id, ...access.tooLarge(request.url) });
    }
  }
  void worker.terminate();
  port1.close();
  return outcome ?? { ok: false, errors: [{ message: failure?.message ?? "the $ref resolver did not answer" }] };
}
