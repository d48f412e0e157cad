/** Issue 12, defect 6: every command answers --help/-h (exit 0, every flag listed), --version, explain. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../generator/cli/commands.ts";
import { mcpgen, NO_TRACE, ROOT } from "./run.ts";

describe("mcpgen --help, <command> --help, --version", () => {
  it("mcpgen --help and -h list every command, exit 0", () => {
    for (const flag of ["--help", "-h", "help"]) {
      const run = mcpgen(ROOT, flag);
      expect([run.code, run.stderr], flag).toEqual([0, ""]);
      for (const command of COMMANDS) expect(run.stdout).toContain(`  ${command.name} `);
    }
  });

  it.each(COMMANDS.map((c) => c.name))("mcpgen %s --help and -h: exit 0, usage with every flag", (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    for (const flag of ["--help", "-h"]) {
      const run = mcpgen(ROOT, name, flag);
      expect([run.code, run.stderr], `${name} ${flag}`).toEqual([0, ""]);
      expect(run.stdout).toMatch(new RegExp(`^usage: mcpgen ${name} `));
      for (const option of [...Object.keys(command.flags), "help"]) expect(run.stdout).toContain(`--${option}`);
    }
    // --help wins even beside a flag the command does not know.
    expect(mcpgen(ROOT, name, "--bogus", "--help").code).toBe(0);
    expect(mcpgen(ROOT, "help", name).stdout).toBe(mcpgen(ROOT, name, "--help").stdout);
  });

  it("generate --help and validate -h exit 0 (they exited 2 with Node's parser message)", () => {
    const generate = mcpgen(ROOT, "generate", "--help");
    expect(generate.code).toBe(0);
    for (const flag of [
      "--out",
      "--check",
      "--format",
      "--max-size",
      "--include",
      "--exclude",
      "--config",
      "--config-file",
    ])
      expect(generate.stdout).toContain(flag);
    expect(mcpgen(ROOT, "validate", "-h").code).toBe(0);
  });

  it("--version prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    for (const flag of ["--version", "-v"])
      expect(mcpgen(ROOT, flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("an unknown flag or command is a usage error naming the command's usage, without Node internals", () => {
    const flag = mcpgen(ROOT, "validate", "--bogus", "specs/notes.yaml");
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--bogus'");
    expect(flag.stderr).toContain("usage: mcpgen validate");
    expect(flag.stderr).not.toMatch(NO_TRACE);
    const command = mcpgen(ROOT, "genrate");
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("did you mean 'generate'?");
  });
});

describe("mcpgen explain", () => {
  it("is case-insensitive", () => {
    const upper = mcpgen(ROOT, "explain", "HEADER_TYPE");
    expect(upper.code).toBe(0);
    expect(mcpgen(ROOT, "explain", "header_type")).toEqual(upper);
    expect(mcpgen(ROOT, "explain", "Header-Type")).toEqual(upper);
  });

  it("suggests the nearest code on a typo (exit 2)", () => {
    const run = mcpgen(ROOT, "explain", "HEADER_TYPO");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("did you mean HEADER_TYPE?");
    expect(mcpgen(ROOT, "explain", "schema_unknwon_keyword").stderr).toContain("did you mean SCHEMA_UNKNOWN_KEYWORD?");
  });
});
