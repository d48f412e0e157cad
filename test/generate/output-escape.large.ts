/**
 * Issue 27 item 3: a package cloned from elsewhere cannot lead `generate` out of `--out`. Its committed
 * ownership record (.mcpgen/files.json) and its symbolic links are the attacker's; the real CLI runs
 * against them and the files outside must stay as they were.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "./support.ts";

function mcpgen(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const spec = (tool: string) =>
  `server: { name: demo, version: 1.0.0, registryName: io.github.mcpgen-examples/demo }
upstream: { baseUrl: 'https://api.example.com' }
tools:
  - { name: ${tool}, inputSchema: { type: object }, annotations: { readOnlyHint: true }, http: { method: GET, path: /x } }
`;

/** A project with a generated package in pkg/, and files outside it that must survive. */
function project(name: string): string {
  const cwd = scratchDir(`escape-${name}`);
  writeFileSync(join(cwd, "spec.yaml"), spec("ping"));
  expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
  writeFileSync(join(cwd, "victim.txt"), "mine\n");
  mkdirSync(join(cwd, "victims"));
  writeFileSync(join(cwd, "victims/only.txt"), "mine too\n");
  return cwd;
}

function plantRecord(cwd: string, entries: string[], scaffolded: Record<string, string> = {}): void {
  const file = join(cwd, "pkg/.mcpgen/files.json");
  const record = JSON.parse(readFileSync(file, "utf8"));
  record.generated.push(...entries);
  Object.assign(record.scaffolded, scaffolded);
  writeFileSync(file, JSON.stringify(record, null, 2));
  // As a clone has it: the fingerprint is git-ignored machine state.
  rmSync(join(cwd, "pkg/.mcpgen/fingerprint.json"));
}

describe("generate never leaves --out (hostile .mcpgen/files.json, symbolic links)", () => {
  it("refuses record entries that are not plain package paths, naming each, even with --force", () => {
    const cwd = project("record");
    const absolute = join(cwd, "victim.txt");
    plantRecord(cwd, ["../victim.txt", "src/../../victims/only.txt", absolute], { "../victim.txt": "tool x" });
    for (const extra of [[], ["--force"], ["--check"]]) {
      const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", ...extra);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain("error OUTPUT_PATH_OUTSIDE: 'pkg/.mcpgen/files.json' lists '../victim.txt'");
      expect(run.stdout).toContain("lists 'src/../../victims/only.txt'");
      expect(run.stdout).toContain(`lists '${absolute}'`);
    }
    expect(readFileSync(join(cwd, "victim.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(cwd, "victims/only.txt"), "utf8")).toBe("mine too\n");
  });

  it("does not write through a committed folder link that leads out of the package", () => {
    const cwd = project("link-write");
    const elsewhere = join(cwd, "elsewhere");
    mkdirSync(elsewhere);
    rmSync(join(cwd, "pkg/deploy"), { recursive: true });
    symlinkSync(elsewhere, join(cwd, "pkg/deploy"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--force");
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain("error OUTPUT_PATH_OUTSIDE: 'pkg/deploy/nginx.conf' leads out of 'pkg'");
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("does not remove through a link: a dropped file's folder linked out keeps its files", () => {
    const cwd = project("link-remove");
    // The record names the server's own file; the folder holding it now leads to the user's files.
    rmSync(join(cwd, "pkg/clients"), { recursive: true });
    symlinkSync(join(cwd, "victims"), join(cwd, "pkg/clients"));
    plantRecord(cwd, ["clients/only.txt"]);
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain("'pkg/clients/only.txt' leads out of 'pkg'");
    expect(readFileSync(join(cwd, "victims/only.txt"), "utf8")).toBe("mine too\n");
  });

  it("does not compile dist/ into a linked folder", () => {
    const cwd = project("link-dist");
    const elsewhere = join(cwd, "elsewhere");
    mkdirSync(elsewhere);
    rmSync(join(cwd, "pkg/dist"), { recursive: true });
    symlinkSync(elsewhere, join(cwd, "pkg/dist"));
    writeFileSync(join(cwd, "spec.yaml"), spec("pong"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("leads outside 'pkg'");
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(cwd, "victim.txt"))).toBe(true);
  });

  it("a link that stays inside the package is followed as before", () => {
    const cwd = project("link-inside");
    rmSync(join(cwd, "pkg/deploy"), { recursive: true });
    mkdirSync(join(cwd, "pkg/real-deploy"));
    symlinkSync("real-deploy", join(cwd, "pkg/deploy"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--force");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(existsSync(join(cwd, "pkg/real-deploy/nginx.conf"))).toBe(true);
  });
});
