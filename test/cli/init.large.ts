/** Issue 12, "mcpgen init": asks nothing, writes a valid commented starter, never overwrites, prints what next. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect } from "../../runtime/client/client.ts";
import { mcpgen, ROOT, tempDir } from "./run.ts";

/**
 * The rest of what init prints, as a newcomer runs it: `npm install` (offline, from the cache the repository's own
 * install filled), the server started over HTTP (`npm run start:http`'s command, on a free port), the starter's tool
 * called. Its handler is the scaffold, so the answer says where to write it. npm and the server warn of nothing.
 */
async function installServeAndCall(pkg: string): Promise<void> {
  const args = ["install", "--no-audit", "--no-fund", "--loglevel=warn"];
  let install = spawnSync("npm", [...args, "--offline"], { cwd: pkg, encoding: "utf8" });
  if (install.status !== 0) install = spawnSync("npm", [...args, "--prefer-offline"], { cwd: pkg, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stderr).toBe("");
  const server = spawn(process.execPath, ["dist/server.js", "--http", "--port", "0"], { cwd: pkg });
  let stderr = "";
  server.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on("data", () => {
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found) resolve(found[1]);
      });
      server.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${stderr}`)));
    });
    const client = await connect({ url });
    try {
      const result = await client.callTool("greet", { name: "Ada" });
      expect(JSON.stringify(result.content)).toContain("src/handlers/tools/greet.ts");
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/warn/i);
  } finally {
    server.kill();
  }
}

describe("mcpgen init", () => {
  it("writes a commented starter spec that validates clean and generates; prints the next two commands; the package installs, serves and answers, with no warning anywhere", async () => {
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
    await installServeAndCall(join(dir, "spec-server"));
  }, 180_000);

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
