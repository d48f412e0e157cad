/**
 * Progress on big work (issue 12): on a real terminal (a pseudo-TTY from util-linux `script`), validate and
 * generate of a spec over 1 MiB draw a progress line on stderr; CI=true, --quiet, a non-terminal stderr and a
 * small spec draw none.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeLargeSpec } from "../../bench/large-spec.ts";
import { terminalProgress } from "../../generator/progress.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const dir = scratchDir("progress");
const big = join(dir, "big.yaml");
const small = join(dir, "small.yaml");
const BIN = join(ROOT, "bin/mcpgen.js");
const hasScript = spawnSync("script", ["--version"]).status === 0;
const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
/** The process environment without CI, whatever the test runner's own environment says. */
const env = (extra: NodeJS.ProcessEnv = {}) => {
  const { CI: _ci, MCPGEN_PROGRESS: _forced, ...rest } = process.env;
  return { ...rest, ...extra };
};

/** Runs mcpgen with its stdio on a pseudo-terminal; returns everything the terminal showed. */
function onTerminal(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  const run = spawnSync("script", ["-qefc", command, "/dev/null"], { encoding: "utf8", env: env(extra), cwd: dir });
  return { code: run.status, output: run.stdout };
}

/** Carriage return and "erase to end of line": the progress line is redrawn in place. */
const REDRAW = "\r\u001b[K";
const PROGRESS_LINE = /mcpgen: parsing entries [\d,]+\/[\d,]+ \(\d+ s\)/;

beforeAll(async () => {
  await writeLargeSpec(big, 3000); // 1.3 MB, over the 1 MiB threshold
  writeFileSync(small, "server: { name: s, version: 1.0.0 }\ntools:\n  - name: a\n    inputSchema: { type: object }\n");
});

describe.runIf(hasScript)("progress on a terminal", () => {
  it("validate of a large spec shows the stage and items done/total, then clears the line", () => {
    const run = onTerminal(["validate", big]);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(PROGRESS_LINE);
    expect(run.output).toContain(`${REDRAW}mcpgen: parsing entries 0/3,002`); // 3,000 tools, server, upstream
    expect(run.output).toContain("parsing entries 3,002/3,002"); // the last count is always drawn
    expect(run.output).toMatch(/checking MCP rules (\d+)\/\1 /); // every rule module, however many
    // Cleared before what follows: the MANY_TOOLS warning (3,000 tools), then the summary.
    expect(run.output).toMatch(new RegExp(`${REDRAW.replace("[", "\\[")}[^\r]*MANY_TOOLS`));
    expect(run.output).toContain("1 file checked: 0 errors, 1 warning");
  });

  it("generate of a large spec shows it too, up to writing the files", () => {
    const run = onTerminal(["generate", big, "--out", join(dir, "out")]);
    expect(run.output).toMatch(PROGRESS_LINE);
    // Each step of render is named: a large API's render is most of the run.
    for (const stage of [
      "normalizing the tools' schemas",
      "rendering the catalog",
      "counting tokens",
      "compiling types",
      "compiling validators",
      "rendering the server, the client and the README",
    ])
      expect(run.output).toContain(`mcpgen: ${stage}`);
    expect(run.output).toMatch(/mcpgen: writing \d+ files/);
    expect(run.output).toContain("written");
  }, 120_000);

  it("is quiet with CI=true, with --quiet, and for a small spec", () => {
    for (const run of [
      onTerminal(["validate", big], { CI: "true" }),
      onTerminal(["validate", big, "--quiet"]),
      onTerminal(["validate", small]),
    ]) {
      expect(run.output).toContain("1 file checked");
      expect(run.output).not.toContain("mcpgen: ");
    }
  });
});

describe("progress off a terminal", () => {
  it("stderr that is not a terminal gets no progress", () => {
    const run = spawnSync(process.execPath, [BIN, "validate", big], { encoding: "utf8", env: env() });
    expect(run.status).toBe(0);
    // The one warning is MANY_TOOLS (3,000 tools), printed on stdout; stderr holds the summary alone.
    expect(run.stdout).toContain("MANY_TOOLS");
    expect(run.stderr).toBe("1 file checked: 0 errors, 1 warning\n");
  });

  it("redraws at most every 100 ms, but always the last item", () => {
    const writes: string[] = [];
    let now = 0;
    const progress = terminalProgress(
      (text) => writes.push(text),
      () => now,
    );
    progress.stage("parsing entries", 3);
    progress.advance(1); // within 100 ms of the stage line: not drawn
    now = 150;
    progress.advance(2);
    progress.advance(3); // the total: drawn at once
    progress.end();
    expect(writes).toEqual([
      "\r\x1b[Kmcpgen: parsing entries 0/3 (0 s)",
      "\r\x1b[Kmcpgen: parsing entries 2/3 (0 s)",
      "\r\x1b[Kmcpgen: parsing entries 3/3 (0 s)",
      "\r\x1b[K",
    ]);
  });
});
