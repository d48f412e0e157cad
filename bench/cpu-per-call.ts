// `npx tsx bench/cpu-per-call.ts <stdio|http> <inFlight> <calls> <rounds> <server>...`: servers measured in
// alternating order under the echo load (bench/clients), each round on a fresh process: calls/s and the server's
// CPU per call (user+sys from /proc, all its threads, the collector's included), the median of the rounds. On a
// shared machine CPU per call moves far less than calls/s. A server is a name of bench/servers (raw-stdio-echo,
// runtime-echo, ...; run `npm run bench -- runtime --quick --no-write` once to build them) or a .js entry such
// as a generated package's dist/server.js.
import { readFileSync } from "node:fs";
import { connectHttp, startHttpServer } from "./clients/http-client.ts";
import { runEchoLoad } from "./clients/load.ts";
import { initialize, type RawConnection } from "./clients/raw-connection.ts";
import { spawnStdio } from "./clients/stdio-client.ts";
import { NODE, SCRATCH } from "./lib/paths.ts";

const [transport = "stdio", inFlightArg = "1", callsArg = "10000", roundsArg = "5", ...names] = process.argv.slice(2);
const [inFlight, calls, rounds] = [Number(inFlightArg), Number(callsArg), Number(roundsArg)];
const scripts = names.map((name) => (name.endsWith(".js") ? name : `${SCRATCH}build/bench/servers/${name}.js`));

/** utime+stime of a process in µs, from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms). */
function cpuMicros(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function connect(script: string): Promise<RawConnection> {
  if (transport === "stdio") return spawnStdio({ command: NODE, args: [script] });
  const server = await startHttpServer({ command: NODE, args: [script, "--http", "--port", "0"] });
  return connectHttp(server.url, server);
}

const results = new Map<string, { rates: number[]; cpu: number[] }>(scripts.map((s) => [s, { rates: [], cpu: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const script of round % 2 ? [...scripts].reverse() : scripts) {
    const connection = await connect(script);
    await initialize(connection);
    await runEchoLoad(connection, 1000, inFlight);
    const before = cpuMicros(connection.pid);
    const load = await runEchoLoad(connection, calls, inFlight);
    const used = (cpuMicros(connection.pid) - before) / calls;
    await connection.close(5000);
    results.get(script)?.rates.push(load.callsPerSecond);
    results.get(script)?.cpu.push(used);
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
for (const [script, { rates, cpu }] of results)
  process.stdout.write(
    `${transport} ${inFlight} in flight: ${script}: ${Math.round(median(rates))}/s, server CPU ${median(cpu).toFixed(1)} µs per call (rates ${rates.map(Math.round).join(" ")})\n`,
  );
