// Runs a whole process and measures it from the outside: wall time from spawn
// to exit, and peak RSS. Peak RSS comes from GNU time's %M (wait4's ru_maxrss,
// which also covers waited-for descendants); without /usr/bin/time it falls
// back to polling /proc/<pid>/status VmHWM of the direct child.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

export type RunOptions = { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv };

export type RunResult = {
  code: number | null;
  wallMs: number;
  peakRssKib: number;
  timedOut: boolean;
  /** The last few KiB of stdout+stderr, to explain a failure. */
  tail: string;
  /** The first `error TSnnnn` in the output, if any (tsc runs). */
  firstTsError?: string;
};

const GNU_TIME = "/usr/bin/time";
const TAIL_BYTES = 4096;

export async function runMeasured(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const useGnuTime = existsSync(GNU_TIME);
  const scratch = useGnuTime ? mkdtempSync(join(tmpdir(), "mcpgen-bench-")) : undefined;
  const rssFile = scratch ? join(scratch, "rss") : undefined;
  const [file, argv] = rssFile ? [GNU_TIME, ["-f", "%M", "-o", rssFile, command, ...args]] : [command, args];
  const started = performance.now();
  // detached: its own process group, so a timeout can kill the whole tree (npx, tsc workers, …).
  const child = spawn(file, argv, { cwd: options.cwd, env: options.env ?? process.env, detached: true });
  let tail = "";
  let firstTsError: string | undefined;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    firstTsError ??= /error (TS\d+)/.exec(text)?.[1];
    tail = (tail + text).slice(-TAIL_BYTES);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let polledPeak = 0;
  const poll = useGnuTime ? undefined : setInterval(() => (polledPeak = Math.max(polledPeak, vmHwm(child.pid))), 20);
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        // Kill the measured command first so GNU time still reports its peak RSS; then the whole group.
        const measured = useGnuTime ? childOf(child.pid) : undefined;
        if (measured) process.kill(measured, "SIGKILL");
        setTimeout(() => {
          try {
            if (child.pid) process.kill(-child.pid, "SIGKILL");
          } catch {
            // already gone
          }
        }, 2000).unref();
      }, options.timeoutMs)
    : undefined;
  const code = await new Promise<number | null>((resolve) => child.on("close", (exitCode) => resolve(exitCode)));
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  clearInterval(poll);
  let peakRssKib = polledPeak;
  if (rssFile && scratch) {
    // GNU time writes "Command exited with non-zero status N" before the figure on failure.
    const lines = existsSync(rssFile) ? readFileSync(rssFile, "utf8").trim().split("\n") : [];
    peakRssKib = Number(lines.at(-1) ?? Number.NaN);
    rmSync(scratch, { recursive: true, force: true });
  }
  return { code: timedOut ? null : code, wallMs, peakRssKib, timedOut, tail, firstTsError };
}

/** The first child of a process (the command GNU time runs), from /proc. */
function childOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ")[0];
    return first ? Number(first) : undefined;
  } catch {
    return undefined;
  }
}

function vmHwm(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Current resident set size of a running process in KiB (VmRSS), for idle-memory figures. */
export function vmRss(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
