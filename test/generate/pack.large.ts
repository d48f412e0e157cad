/**
 * Issue 16, "installable everywhere": specs/petstore.yaml → generate → `npm pack` (its prepack runs the
 * type-checked `npm run build`) → `npm install <tarball>` in an empty folder (offline from the npm cache
 * when it holds every dependency, else the registry) → `npx petstore-mcp` serves over stdio to the
 * official SDK client. Then every snippet under clients/ of the installed package is parsed, and each
 * local (stdio) command in it is run with the installed bin on PATH and lists the tools.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { DEPLOYED_URL } from "../../generator/render/client-configs.ts";
import { AjvDraft07, addFormats } from "../../generator/schema/ajv.ts";
import { ROOT } from "./support.ts";

const tmp = mkdtempSync(join(tmpdir(), "mcpgen-pack-"));
const pkg = join(tmp, "petstore");
const install = join(tmp, "install");
const installed = join(install, "node_modules/petstore-mcp");

function npm(args: string[], cwd: string) {
  return spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });
}

/** Lists the tools of a server started as `command args` in the install folder, its bin on PATH. */
async function toolNames(command: string, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k !== "NODE_OPTIONS" && v));
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: install,
    env: {
      ...(base as Record<string, string>),
      ...env,
      PATH: `${join(install, "node_modules/.bin")}${delimiter}${process.env.PATH}`,
    },
    stderr: "pipe",
  });
  const client = new Client({ name: "pack-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  const result = await generate(join(ROOT, "specs/petstore.yaml"), pkg);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  // prepack's tsc and @types/node come from the repository's install, as after `npm install` in the package.
  symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
  const pack = npm(["pack", "--pack-destination", tmp], pkg);
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = join(tmp, pack.stdout.trim().split("\n").at(-1)!);
  mkdirSync(install);
  writeFileSync(join(install, "package.json"), "{}\n");
  let add = npm(["install", tarball, "--offline"], install);
  if (add.status !== 0) add = npm(["install", tarball, "--prefer-offline"], install);
  expect(add.status, add.stderr).toBe(0);
}, 300_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("npm pack + npm install of a generated package", () => {
  it("package.json: bin named after the server, files, exports with types, engines, not private", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest.bin).toEqual({ "petstore-mcp": "dist/server.js" });
    expect(manifest.private).toBeUndefined();
    expect(manifest.engines).toEqual({ node: ">=20" });
    expect(manifest.exports["."]).toEqual({ types: "./dist/src/client.d.ts", default: "./dist/src/client.js" });
    for (const file of ["dist/src/client.d.ts", "dist/src/client.js", "dist/src/types.d.ts", "README.md"])
      expect(readdirSync(join(installed, file.split("/").slice(0, -1).join("/") || "."))).toContain(
        file.split("/").at(-1),
      );
    expect(readFileSync(join(installed, "dist/server.js"), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(Object.keys(manifest.dependencies)).not.toContain("tsx");
    // server.json ships with the package, in step with it and valid for the MCP Registry.
    const registry = JSON.parse(readFileSync(join(installed, "server.json"), "utf8"));
    const schema = JSON.parse(
      readFileSync(join(ROOT, "generator/render/vendor/server-json-2025-12-11.schema.json"), "utf8"),
    );
    const ajv = new AjvDraft07({ strict: false });
    addFormats(ajv);
    expect(ajv.validate(schema, registry), JSON.stringify(ajv.errors)).toBe(true);
    expect([registry.version, registry.packages[0].version, registry.name]).toEqual([
      manifest.version,
      manifest.version,
      manifest.mcpName,
    ]);
  });

  it("npm install in the package itself (development dependencies too) runs no install script and warns of none", () => {
    const fresh = join(tmp, "fresh");
    mkdirSync(fresh);
    writeFileSync(join(fresh, "package.json"), readFileSync(join(pkg, "package.json")));
    const args = ["install", "--no-audit", "--no-fund", "--loglevel=warn"];
    let run = spawnSync("npm", [...args, "--offline"], { cwd: fresh, encoding: "utf8" });
    if (run.status !== 0) run = spawnSync("npm", [...args, "--prefer-offline"], { cwd: fresh, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/install.?script|EBADENGINE/i);
    expect(readdirSync(join(fresh, "node_modules"))).not.toContain("esbuild");
  }, 120_000);

  it("npx petstore-mcp serves over stdio to the SDK client", async () => {
    expect(await toolNames("npx", ["petstore-mcp"])).toContain("getPet");
  }, 60_000);

  it("every clients/ snippet parses, and each local command in it serves tools/list", async () => {
    const dir = join(installed, "clients");
    const files = readdirSync(dir).sort();
    expect(files).toEqual([
      "claude-code.mcp.json",
      "claude-code.sh",
      "claude_desktop_config.json",
      "cursor.mcp.json",
      "inspector.sh",
      "vscode.mcp.json",
    ]);
    const commands: Array<{ file: string; command: string; args: string[] }> = [];
    const urls: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".json"))) {
      const config = JSON.parse(readFileSync(join(dir, file), "utf8"));
      const servers = config.mcpServers ?? config.servers;
      for (const entry of Object.values(servers) as Array<{ command?: string; args?: string[]; url?: string }>) {
        if (entry.url !== undefined) urls.push(entry.url);
        else commands.push({ file, command: entry.command!, args: entry.args ?? [] });
      }
    }
    const lines = (file: string) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter((line) => line && !line.startsWith("#"));
    const [claudeStdio, claudeHttp] = lines("claude-code.sh");
    const [bin, ...binArgs] = claudeStdio.split(" -- ")[1].split(" ");
    commands.push({ file: "claude-code.sh", command: bin, args: binArgs });
    expect(claudeHttp.split(" ").at(-1)).toBe(DEPLOYED_URL);
    const [inspectorStdio, inspectorHttp] = lines("inspector.sh");
    const words = inspectorStdio.split(" -- ")[1].split(" ");
    commands.push({ file: "inspector.sh", command: words[0], args: words.slice(1) });
    expect(inspectorHttp.split(" ").at(-1)).toBe(DEPLOYED_URL);

    expect(commands.map((c) => c.file).sort()).toEqual([
      "claude-code.mcp.json",
      "claude-code.sh",
      "claude_desktop_config.json",
      "cursor.mcp.json",
      "inspector.sh",
      "vscode.mcp.json",
    ]);
    expect(urls).toEqual([DEPLOYED_URL, DEPLOYED_URL, DEPLOYED_URL]);
    for (const { file, command, args } of commands) {
      expect([file, command]).toEqual([file, "petstore-mcp"]);
      expect(await toolNames(command, args, { PETSTORE_API_KEY: "test" }), file).toContain("getPet");
    }
  }, 120_000);
});
