/** Issue 12, "mcpgen init": asks nothing, writes a valid commented starter, never overwrites, prints what next. */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT, tempDir } from "./run.ts";

describe("mcpgen init", () => {
  it("writes a commented starter spec that validates clean and generates; prints the next two commands", () => {
    const dir = tempDir("init");
    const run = mcpgen(dir, "init");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "wrote spec.yaml\n\nnext:\n  mcpgen generate spec.yaml --out spec-server\n  cd spec-server && npm install && npm run start:http\n",
    );
    const text = readFileSync(join(dir, "spec.yaml"), "utf8");
    expect(text.split("\n").filter((line) => line.includes("#")).length).toBeGreaterThan(5);
    expect(mcpgen(dir, "validate", "spec.yaml")).toMatchObject({ code: 0, stdout: "" });
    const generate = mcpgen(dir, "generate", "spec.yaml", "--out", "spec-server");
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    expect(existsSync(join(dir, "spec-server/src/handlers/tools/greet.ts"))).toBe(true);
    // A newcomer's first generate prints no warning: the starter is private until given a registry name.
    expect(generate.stdout).toBe("");
    expect(generate.stderr).not.toMatch(/warning/);
    expect(JSON.parse(readFileSync(join(dir, "spec-server/package.json"), "utf8")).private).toBe(true);
  });

  it("never writes through a dangling spec.yaml link (it would create the link's target)", () => {
    const dir = tempDir("init-link");
    mkdirSync(join(dir, "elsewhere"));
    symlinkSync(join(dir, "elsewhere/planted.sh"), join(dir, "spec.yaml"));
    const run = mcpgen(dir, "init");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("spec.yaml already exists");
    expect(existsSync(join(dir, "elsewhere/planted.sh"))).toBe(false);
    expect(lstatSync(join(dir, "spec.yaml")).isSymbolicLink()).toBe(true);
  });

  it("never overwrites a file (exit 2, the file unchanged)", () => {
    const dir = tempDir("init-exists");
    writeFileSync(join(dir, "spec.yaml"), "mine\n");
    const run = mcpgen(dir, "init");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("spec.yaml already exists");
    expect(readFileSync(join(dir, "spec.yaml"), "utf8")).toBe("mine\n");
    expect(mcpgen(dir, "init", "other.yaml").code).toBe(0);
  });

  it("--from-openapi writes mcpgen.config.ts pointing at the document; generate with no arguments uses it", () => {
    const dir = tempDir("init-openapi");
    writeFileSync(join(dir, "petstore.yaml"), readFileSync(join(ROOT, "specs/petstore.yaml")));
    const run = mcpgen(dir, "init", "--from-openapi", "petstore.yaml");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "wrote mcpgen.config.ts\n\nnext:\n  mcpgen generate\n  cd petstore-mcp && npm install && npm run start:http\n",
    );
    const config = readFileSync(join(dir, "mcpgen.config.ts"), "utf8");
    expect(config).toContain('import { defineConfig } from "mcpgen";');
    expect(config).toContain('input: "petstore.yaml"');
    const generate = mcpgen(dir, "generate");
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    expect(existsSync(join(dir, "petstore-mcp/src/server.ts"))).toBe(true);
    // A second init refuses: the config exists.
    expect(mcpgen(dir, "init", "--from-openapi", "petstore.yaml").code).toBe(2);
    expect(mcpgen(dir, "init", "--from-openapi", "missing.yaml").code).toBe(2);
  });
});
