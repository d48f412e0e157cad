/**
 * Issue 16 §3: examples/github-workflow.yml, the CI recipe the README points to. It parses, pins every
 * action it uses, and every mcpgen command in it is `generate` with flags mcpgen has; the commands of both
 * jobs run here, as the workflow's shell would run them, against specs/petstore.yaml in a scratch folder.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generateCommand } from "../../generator/cli/generate.ts";
import { ROOT, scratchDir } from "./support.ts";

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { if?: string; steps: Step[]; permissions?: Record<string, string> };
type Workflow = { on: Record<string, unknown>; env: Record<string, string>; jobs: Record<string, Job> };

const FILE = join(ROOT, "examples/github-workflow.yml");
const workflow = parse(readFileSync(FILE, "utf8")) as Workflow;
const MCPGEN = "npx --no mcpgen ";

/** The lines of a job's `run` steps that call mcpgen. */
function mcpgenLines(job: Job): string[] {
  return job.steps.flatMap((s) => (s.run ?? "").split("\n")).filter((line) => line.includes("mcpgen "));
}

/** Runs one line of a workflow's `run` in bash, mcpgen being this repository's bin/mcpgen.js. */
function runLine(line: string, cwd: string, env: Record<string, string>) {
  expect(line.trimStart().startsWith(MCPGEN), line).toBe(true);
  const script = line.replace(MCPGEN, 'node "$MCPGEN_BIN" ');
  return spawnSync("bash", ["-euo", "pipefail", "-c", script], {
    cwd,
    env: { ...process.env, ...env, MCPGEN_BIN: join(ROOT, "bin/mcpgen.js") },
    encoding: "utf8",
  });
}

describe("examples/github-workflow.yml", () => {
  it("runs on pull requests, on a schedule and on demand; every action is pinned to a version", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "schedule", "workflow_dispatch"]);
    const uses = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
    expect(uses).toContain("peter-evans/create-pull-request@v7");
    for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
    expect(workflow.jobs.regenerate.permissions).toEqual({ contents: "write", "pull-requests": "write" });
  });

  it("calls only `mcpgen generate`, with flags generate has", () => {
    const lines = Object.values(workflow.jobs).flatMap(mcpgenLines);
    expect(lines.length).toBe(3);
    const known = new Set(Object.keys(generateCommand.flags));
    for (const line of lines) {
      const words = line.trim().slice(MCPGEN.length).split(/\s+/);
      expect(words[0]).toBe(generateCommand.name);
      const flags = words.filter((w) => w.startsWith("--")).map((w) => w.slice(2));
      expect(flags.length).toBeGreaterThan(0);
      for (const flag of flags) expect(known, `--${flag} in: ${line}`).toContain(flag);
    }
  });

  it("the pull-request job: --check passes on an up-to-date package and the summary shows the change", () => {
    const repo = scratchDir("workflow-pr");
    const temp = join(repo, "runner-temp");
    mkdirSync(join(repo, "openapi"));
    mkdirSync(temp);
    copyFileSync(join(ROOT, "specs/petstore.yaml"), join(repo, workflow.env.SPEC));
    const env: Record<string, string> = { ...workflow.env, RUNNER_TEMP: temp };
    // The package as committed: generated once from the spec.
    const first = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), "generate", env.SPEC, "--out", env.OUT], {
      cwd: repo,
      encoding: "utf8",
    });
    expect(first.status, first.stderr).toBe(0);
    const [check, summary] = mcpgenLines(workflow.jobs.check);
    const checked = runLine(check, repo, env);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stderr).toContain("is up to date with");
    // The base branch had no package yet: every tool is new.
    mkdirSync(join(temp, "base"));
    const summarised = runLine(summary, repo, env);
    expect(summarised.status, summarised.stderr).toBe(0);
    const markdown = readFileSync(join(temp, "surface.md"), "utf8");
    expect(markdown).toContain("### MCP surface changes for");
    expect(markdown).toMatch(/\| added \| tool \| `listPets` \|/);
  });

  it("the scheduled job: regenerates from the fetched document and writes the pull request's body", () => {
    const repo = scratchDir("workflow-regen");
    const temp = join(repo, "runner-temp");
    mkdirSync(join(repo, "openapi"));
    mkdirSync(temp);
    copyFileSync(join(ROOT, "specs/petstore.yaml"), join(repo, workflow.env.SPEC));
    const [regenerate] = mcpgenLines(workflow.jobs.regenerate);
    const run = runLine(regenerate, repo, { ...workflow.env, RUNNER_TEMP: temp });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(repo, workflow.env.OUT, "server.json"))).toBe(true);
    const body = workflow.jobs.regenerate.steps.find((s) => s.uses?.startsWith("peter-evans/"))?.with?.["body-path"];
    expect(body).toBe(`\${{ runner.temp }}/surface.md`);
    expect(readFileSync(join(temp, "surface.md"), "utf8")).toContain("| added | tool |");
  });
});
