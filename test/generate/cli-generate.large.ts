/** `mcpgen generate` as a real process: exit codes, --check drift detection and its MCP surface summary. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.ts";

function mcpgen(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("mcpgen generate", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-gen-cli-"));
  const specFile = join(dir, "spec.yaml");
  const out = join(dir, "pkg");
  const base =
    "server: { name: demo, version: 1.0.0, registryName: io.github.mcpgen-examples/demo }\nupstream: { baseUrl: 'https://api.example.com' }\ntools:\n  - { name: ping, inputSchema: { type: object }, http: { method: GET, path: /ping } }\n";

  it("generates a package, then --check says it is up to date (exit 0)", () => {
    writeFileSync(specFile, base);
    const first = mcpgen("generate", specFile, "--out", out);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("+ tool ping");
    const check = mcpgen("generate", specFile, "--out", out, "--check");
    expect([check.code, check.stdout]).toEqual([0, ""]);
    expect(check.stderr).toContain("is up to date");
  });

  it("--check exits 1 on drift, lists the files and the surface changes, and writes nothing", () => {
    const catalogBefore = readFileSync(join(out, "src/catalog.json"), "utf8");
    writeFileSync(
      specFile,
      `${base}  - { name: pong, description: new, inputSchema: { type: object }, http: { method: POST, path: /pong } }\n`,
    );
    const check = mcpgen("generate", specFile, "--out", out, "--check");
    expect(check.code).toBe(1);
    expect(check.stdout.split("\n")).toContain("changed src/catalog.json");
    expect(check.stderr).toContain("+ tool pong");
    expect(readFileSync(join(out, "src/catalog.json"), "utf8")).toBe(catalogBefore);
  });

  it("--check --format json exits 1 on drift, alone and from a config file (a CI bot reads the JSON)", () => {
    const project = mkdtempSync(join(tmpdir(), "mcpgen-gen-json-"));
    writeFileSync(join(project, "spec.yaml"), base);
    expect(mcpgen("generate", join(project, "spec.yaml"), "--out", join(project, "pkg")).code).toBe(0);
    writeFileSync(join(project, "spec.yaml"), base.replace("name: ping", "name: pinged"));
    const direct = mcpgen(
      "generate",
      join(project, "spec.yaml"),
      "--out",
      join(project, "pkg"),
      "--check",
      "--format",
      "json",
    );
    expect(direct.code).toBe(1);
    expect(JSON.parse(direct.stdout)).toMatchObject({ upToDate: false, exitCode: 1 });
    writeFileSync(join(project, "mcpgen.config.json"), JSON.stringify({ input: "spec.yaml", output: "pkg" }));
    const config = join(project, "mcpgen.config.json");
    const configured = mcpgen("generate", "--config-file", config, "--check", "--format", "json");
    expect(configured.code).toBe(1);
    expect(JSON.parse(configured.stdout)).toMatchObject([{ upToDate: false, exitCode: 1 }]);
  });

  it("a spec with errors generates nothing and exits 1 with the same diagnostics as validate", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      "server: { name: demo, version: 1.0.0, registryName: io.github.mcpgen-examples/demo }\ntools: [{ name: 'a b', inputSchema: { type: object } }]\n",
    );
    const run = mcpgen("generate", bad, "--out", join(dir, "never"));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(mcpgen("validate", bad).stdout);
    expect(existsSync(join(dir, "never"))).toBe(false);
  });

  it("usage errors and unwritable output exit 2, with a diagnostic and no stack trace", () => {
    expect(mcpgen("generate", specFile).code).toBe(2);
    expect(mcpgen("generate", "--out", out).code).toBe(2);
    const onFile = mcpgen("generate", specFile, "--out", specFile);
    expect([onFile.code, onFile.stdout]).toEqual([2, expect.stringContaining("error OUTPUT_NOT_DIRECTORY")]);
    const underFile = mcpgen("generate", specFile, "--out", join(specFile, "pkg"));
    expect([underFile.code, underFile.stdout]).toEqual([2, expect.stringContaining("error WRITE_FAILED")]);
    expect(underFile.stdout + underFile.stderr).not.toMatch(/\n\s+at /);
  });
});
