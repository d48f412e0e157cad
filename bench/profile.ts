// `npx tsx bench/profile.ts <server> [stdio|http] [inFlight] [calls]`: runs one benchmark server
// (raw-stdio-echo, raw-http-echo, runtime-echo, sdk-echo, or a path to a .js entry such as a
// generated package's dist/src/server.js) under `node --cpu-prof`, drives the echo load through it,
// and prints where the server's CPU time went: self time by function and by file.
// Run `npm run bench -- runtime --quick` once first: it compiles the servers this script runs.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connectHttp, startHttpServer } from "./clients/http-client.ts";
import { runEchoLoad } from "./clients/load.ts";
import { initialize, type RawConnection } from "./clients/raw-connection.ts";
import { spawnStdio } from "./clients/stdio-client.ts";
import { NODE, ROOT, SCRATCH } from "./lib/paths.ts";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const [name = "runtime-echo", transport = "stdio", inFlightArg = "1", callsArg = "20000"] = process.argv.slice(2);
const script = name.endsWith(".js") ? name : `${SCRATCH}build/bench/servers/${name}.js`;
const profileDir = `${SCRATCH}profiles/${Date.now()}`;
mkdirSync(profileDir, { recursive: true });
const args = ["--cpu-prof", "--cpu-prof-dir", profileDir, script];

let connection: RawConnection;
if (transport === "stdio") {
  connection = spawnStdio({ command: NODE, args });
} else {
  const server = await startHttpServer({ command: NODE, args: [...args, "--http", "--port", "0"] });
  connection = connectHttp(server.url, server);
}
await initialize(connection);
await runEchoLoad(connection, 1000, Number(inFlightArg)); // warm-up
const cpuBefore = cpuMicros(connection.pid);
const load = await runEchoLoad(connection, Number(callsArg), Number(inFlightArg));
const cpuPerCall = (cpuMicros(connection.pid) - cpuBefore) / Number(callsArg);
await connection.close(5000);
process.stdout.write(
  `${name} ${transport} in flight ${inFlightArg}: ${Math.round(load.callsPerSecond)}/s, server CPU ${cpuPerCall.toFixed(1)} µs per call (user+sys, from /proc; robust to other load)\n`,
);

const file = readdirSync(profileDir).find((entry) => entry.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile written in ${profileDir} (the server must exit normally)`);
const profile = JSON.parse(readFileSync(`${profileDir}/${file}`, "utf8")) as Profile;
summarize(profile);
rmSync(profileDir, { recursive: true, force: true });

function summarize({ nodes, samples, timeDeltas }: Profile): void {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const selfByFunction = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  let total = 0;
  samples.forEach((id, index) => {
    const node = byId.get(id);
    const delta = timeDeltas[index] ?? 0;
    if (!node) return;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(`file://${ROOT}`, "").replace(/^.*node_modules\//, "~/");
    const fn = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + delta);
    const fileKey = where || functionName; // (garbage collector), (idle), (program) have no url
    selfByFile.set(fileKey, (selfByFile.get(fileKey) ?? 0) + delta);
  });
  const print = (title: string, map: Map<string, number>, count: number) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      process.stdout.write(
        `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}\n`,
      );
    }
  };
  print("self time by function", selfByFunction, 40);
  print("self time by file", selfByFile, 25);
}

/** utime+stime of a process in µs, from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms). */
function cpuMicros(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
