/**
 * Progress for big work (issue 12): on a terminal, `validate` and `generate` of a large spec show the stage
 * and the items done so far on stderr, redrawn in place at most 10 times a second. The pipeline reports
 * into the module-level `progress`, a no-op unless the CLI turned it on: so no stage needs a parameter
 * for it, and tests and library callers see nothing.
 *
 * Off when stderr is not a terminal, when CI is set (CI=true, as every CI service sets it), with --quiet,
 * and for specs under PROGRESS_MIN_BYTES (they finish before a progress line would help).
 * MCPGEN_PROGRESS=tty forces it on without a terminal (for tests); MCPGEN_PROGRESS=off forces it off.
 */
import { statSync } from "node:fs";

export type Progress = {
  /** A new stage; `total` when its items can be counted. */
  stage(name: string, total?: number): void;
  /** Items of the current stage done so far. */
  advance(done: number): void;
  /** Clears the line (before the command's own output). */
  end(): void;
};

const silent: Progress = { stage() {}, advance() {}, end() {} };
export let progress: Progress = silent;

export const PROGRESS_MIN_BYTES = 1024 * 1024;
const REDRAW_MS = 100;

type Environment = { isTTY: boolean; env: NodeJS.ProcessEnv };

/** Whether progress shows for these spec files, given the terminal and the environment. */
export function wantsProgress(files: string[], quiet: boolean, where: Environment): boolean {
  const forced = where.env.MCPGEN_PROGRESS;
  if (quiet || forced === "off") return false;
  if (forced !== "tty" && (!where.isTTY || isCi(where.env.CI))) return false;
  return files.some((file) => (statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= PROGRESS_MIN_BYTES);
}

function isCi(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

/** Turns progress on for the rest of the process when `wantsProgress` says so. */
export function startProgress(files: string[], quiet: boolean): void {
  if (!wantsProgress(files, quiet, { isTTY: process.stderr.isTTY === true, env: process.env })) return;
  progress = terminalProgress((text) => process.stderr.write(text));
}

export function terminalProgress(write: (text: string) => void, now = () => Date.now()): Progress {
  let name = "";
  let total: number | undefined;
  let done = 0;
  let drawn = 0;
  let shown = false;
  const started = now();
  const draw = () => {
    drawn = now();
    shown = true;
    const count = total === undefined ? "" : ` ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")}`;
    const seconds = ((drawn - started) / 1000).toFixed(0);
    // \r and "erase to end of line": one line, redrawn in place.
    write(`\r\x1b[Kmcpgen: ${name}${count} (${seconds} s)`);
  };
  return {
    stage(stageName, stageTotal) {
      name = stageName;
      total = stageTotal;
      done = 0;
      draw();
    },
    advance(count) {
      done = count;
      if (now() - drawn >= REDRAW_MS || count === total) draw();
    },
    end() {
      if (shown) write("\r\x1b[K");
      shown = false;
    },
  };
}
