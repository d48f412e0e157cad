/**
 * Issue 11, item 13: stdio back-pressure. A client that sends requests but never reads stdout must not
 * make the server queue answers without bound: the server stops reading stdin while its output waits,
 * and catches up once the client reads again. Measured on a real child process (its RSS, from /proc).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURE_SERVER, MODERN_META } from "./wire.ts";

const FLOOD = 40_000;
const WARM_UP = 2_000;
/** RSS growth allowed while the client does not read. Without back-pressure it was ~90 MB and growing. */
const MAX_GROWTH_MB = 40;

const listLine = (id: number) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: MODERN_META } })}\n`;

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Bytes the process has read through system calls so far (stdin, and any file it opens). */
function bytesRead(pid: number): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== "linux")("item 13: stdio back-pressure", () => {
  it("a client that stops reading stdout while flooding stdin leaves the server's memory bounded", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE_SERVER], { stdio: ["pipe", "pipe", "pipe"] });
    const pid = child.pid ?? 0;
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.on("error", () => {});
    let answers = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 0x0a) answers++;
    });
    const waitForAnswers = async (count: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (answers < count) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`got ${answers}/${count} answers; stderr: ${stderr.slice(0, 2000)}`);
        await sleep(20);
      }
    };
    try {
      // Warm up (JIT, catalog loaded, heap grown to its working size), reading every answer.
      for (let id = 1; id <= WARM_UP; id++) child.stdin.write(listLine(id));
      await waitForAnswers(WARM_UP, 60_000);
      await sleep(200);
      const baseline = rssMb(pid);

      // Stop reading, then flood. The parent keeps what the child does not take in its own buffer.
      child.stdout.pause();
      // In writes of 100 lines, so what still waits on our side shows how far the child has read.
      let floodBytes = 0;
      for (let first = WARM_UP + 1; first <= WARM_UP + FLOOD; first += 100) {
        let batch = "";
        for (let id = first; id < first + 100; id++) batch += listLine(id);
        floodBytes += batch.length;
        child.stdin.write(batch);
      }

      // Watch until the child stops reading stdin (its read-byte count, from /proc, stays put) or has read
      // all of it, tracking its peak RSS meanwhile.
      const readBefore = bytesRead(pid);
      let peak = baseline;
      let lastRead = readBefore;
      let stableSince = Date.now();
      const started = Date.now();
      while (Date.now() - started < 60_000) {
        await sleep(100);
        peak = Math.max(peak, rssMb(pid));
        const read = bytesRead(pid);
        if (read - readBefore >= floodBytes) break;
        if (read !== lastRead) {
          lastRead = read;
          stableSince = Date.now();
        } else if (Date.now() - stableSince > 3_000) break;
      }
      const growth = peak - baseline;
      const taken = bytesRead(pid) - readBefore;
      const summary = `child read ${taken} of ${floodBytes} bytes; RSS ${baseline.toFixed(1)} -> ${peak.toFixed(1)} MB`;
      // The child stopped reading: most of the flood still waits in the pipe and on our side.
      expect(taken, summary).toBeLessThan(floodBytes / 2);
      expect(growth, summary).toBeLessThan(MAX_GROWTH_MB);

      // Reading again, the client gets every answer: nothing was dropped, the server just waited.
      child.stdout.resume();
      await waitForAnswers(WARM_UP + FLOOD, 120_000);
    } finally {
      child.stdout.resume(); // a server waiting on its output would not finish writing, so not exit
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const stubborn = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(stubborn);
      }
    }
  }, 240_000);
});
