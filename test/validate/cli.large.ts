/** `mcpgen validate` as users run it: a real child process, its stdout, stderr and exit code (docs/command-line.md). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "mcpgen-cli-"));

function mcpgen(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, "bin/mcpgen.js"), ...args], { cwd: root, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const broken = join(dir, "broken.yaml");
writeFileSync(
  broken,
  "server:\n  name: weather\n  verison: 1.0.0\ntools:\n  - name: get forecast\n    inputSchema: { type: object }\n",
);

describe("mcpgen validate", () => {
  it("accepts every example in specs/ (exit 0, nothing on stdout)", () => {
    const run = mcpgen("validate", "specs/weather.yaml", "specs/notes.yaml", "specs/tasks.json");
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain("3 files checked: 0 errors, 0 warnings");
  });

  it("prints file:line:col: severity CODE: message, with the hint indented below", () => {
    const run = mcpgen("validate", broken);
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      `${broken}:1:1: error SPEC_MISSING_FIELD: server is missing required field 'version'`,
      "    hint: add 'version:' here",
      `${broken}:3:3: error SPEC_UNKNOWN_KEY: unknown key 'verison' in server`,
      "    hint: did you mean 'version'?",
      `${broken}:5:11: error NAME_INVALID: tool name 'get forecast' contains a space`,
      "    hint: Rename it using only letters, digits, '_', '-' and '.'.",
      "",
    ]);
  });

  it("--format json prints an array of {code, severity, message, file, line, col, pointer, hint}", () => {
    const run = mcpgen("validate", broken, "--format", "json");
    expect(run.code).toBe(1);
    const diagnostics = JSON.parse(run.stdout);
    expect(diagnostics).toHaveLength(3);
    expect(diagnostics[2]).toEqual({
      code: "NAME_INVALID",
      severity: "error",
      message: "tool name 'get forecast' contains a space",
      file: broken,
      line: 5,
      col: 11,
      pointer: "/tools/0/name",
      hint: "Rename it using only letters, digits, '_', '-' and '.'.",
    });
  });

  it("exits 0 with warnings only", () => {
    const file = join(dir, "warn.yaml");
    writeFileSync(file, "server: { name: a, version: '1.0' }\n");
    const run = mcpgen("validate", file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("warning SERVER_VERSION_NOT_SEMVER");
  });

  it("exits 2 on usage errors and unreadable files, without a stack trace", () => {
    for (const args of [
      [],
      ["validate"],
      ["frobnicate"],
      ["validate", broken, "--format", "xml"],
      ["validate", "--bogus", broken],
      ["validate", join(dir, "missing.yaml")],
      ["validate", dir],
    ]) {
      const run = mcpgen(...args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout + run.stderr).not.toMatch(/\n\s+at |Error:/);
    }
  });

  it("never prints a stack trace, whatever the file holds", () => {
    const nasty = [
      "",
      "\u0000\u0001",
      "[1, 2",
      ": : :",
      "server: !!binary x",
      "a: *undefined",
      "x".repeat(100_000),
      "{{{{{{{{{{",
    ];
    nasty.forEach((text, i) => {
      const file = join(dir, `nasty-${i}.yaml`);
      writeFileSync(file, text);
      const run = mcpgen("validate", file);
      expect(run.code, JSON.stringify(text.slice(0, 20))).toBe(1);
      expect(run.stdout).toMatch(/^.+:\d+:\d+: error [A-Z_]+: /);
      expect(run.stdout + run.stderr).not.toMatch(/\n\s+at |TypeError|ReferenceError/);
    });
  });

  it("explains a diagnostic code", () => {
    const run = mcpgen("explain", "HEADER_PLACEMENT");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("HEADER_PLACEMENT (error): x-mcp-header is not statically reachable");
    expect(mcpgen("explain", "NOPE").code).toBe(2);
  });
});
