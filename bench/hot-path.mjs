// `node bench/hot-path.mjs [calls] [rounds]`: the JavaScript cost of one echo `tools/call` in process, through
// serveStdio over in-memory streams (no pipes, no process wake-ups: what is left is what the server itself does per
// request), for the generated echo package (its dist/, as `npm run bench -- runtime` builds it) and the
// hand-written runtime server, alternating, sequential and 64 in flight. µs per call, best and median of the rounds.
// Run `npm run bench -- runtime --quick --no-write` once first: it builds both. ONLY=generated (or runtime): one of them.
import { PassThrough, Writable } from "node:stream";

const ROOT = new URL("../", import.meta.url);
const calls = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 7);

const generated = await import(new URL(".tmp/bench/gen/echo/dist/src/app.js", ROOT).href);
const runtime = await import(new URL(".tmp/bench/build/runtime/index.js", ROOT).href);
const { compileSchema } = await import(new URL(".tmp/bench/build/runtime/protocol/compile-schema.js", ROOT).href);
const generatedStdio = await import(new URL(".tmp/bench/gen/echo/dist/runtime/transport/stdio/server.js", ROOT).href);

const only = process.env.ONLY;
const servers = {
  generated: () => ({ server: generated.createAppServer(), serve: generatedStdio.serveStdio }),
  runtime: () => {
    const server = runtime.createServer({ name: "runtime-echo", version: "1.0.0", compileSchema });
    server.tool({
      name: "echo",
      description: "Returns the text it was given.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (args) => ({ content: [{ type: "text", text: args.text }] }),
    });
    return { server, serve: runtime.serveStdio };
  },
};

/** A connection to a fresh server over in-memory streams: `call()` resolves with the answer's line. */
function connect(make) {
  const { server, serve } = make();
  const input = new PassThrough();
  const waiting = new Map();
  let buffered = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      buffered += chunk.toString();
      let end = buffered.indexOf("\n");
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const id = Number(/"id":(\d+)/.exec(line)?.[1]);
        waiting.get(id)?.(line);
        waiting.delete(id);
        end = buffered.indexOf("\n");
      }
      done();
    },
  });
  const handle = serve(server, { input, output, exitOnClose: false });
  let next = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  return { call, close: () => handle.close() };
}

const ECHO = { name: "echo", arguments: { text: "hello, mcp" } };

async function measure(make, inFlight) {
  const connection = connect(make);
  await connection.call("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "hot-path", version: "1" },
  });
  const load = async (total) => {
    let issued = 0;
    const worker = async () => {
      while (issued++ < total) {
        const line = await connection.call("tools/call", ECHO);
        if (!line.includes('"text":"hello, mcp"') || line.includes('"isError":true')) throw new Error(line);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  };
  await load(2000);
  const started = process.cpuUsage();
  await load(calls);
  const used = process.cpuUsage(started);
  await connection.close();
  return (used.user + used.system) / calls;
}

for (const inFlight of [1, 64]) {
  const samples = { generated: [], runtime: [] };
  for (let round = 0; round < rounds; round++)
    for (const name of round % 2 ? ["runtime", "generated"] : ["generated", "runtime"])
      if (!only || only === name) samples[name].push(await measure(servers[name], inFlight));
  for (const [name, list] of Object.entries(samples)) {
    if (list.length === 0) continue;
    list.sort((a, b) => a - b);
    const median = list[Math.floor(list.length / 2)];
    console.log(
      `${inFlight === 1 ? "sequential  " : "64 in flight"} ${name.padEnd(9)} best ${list[0].toFixed(2)} µs, median ${median.toFixed(2)} µs per call`,
    );
  }
}
