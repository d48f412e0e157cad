/**
 * Issue 16 (MCPB): specs/petstore.yaml → generate → `npm run bundle` → a .mcpb that the official CLI's
 * `mcpb validate` accepts, and that, unpacked into an empty folder, starts with the command its own
 * manifest gives (`${__dirname}` and `${user_config.*}` filled in as Claude Desktop fills them) and
 * answers tools/list over stdio to the official SDK client.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { BUNDLE_ENTRY_POINT } from "../../generator/render/mcpb-manifest.ts";
import { ensureMcpb, mcpb } from "../setup/mcpb.ts";
import { ROOT, scratchDir } from "./support.ts";

// Inside the repository (.tmp/tests), so the package and the unpacked bundle resolve its node_modules: the
// bundle is built without a node_modules of its own (the script warns), as no registry is asked here.
const work = scratchDir("mcpb");
const pkgDir = join(work, "petstore");
const unpacked = join(work, "unpacked");
let bundle = "";

type UserConfig = Record<string, { default?: unknown; sensitive?: boolean }>;

beforeAll(async () => {
  ensureMcpb();
  const result = await generate(join(ROOT, "specs/petstore.yaml"), pkgDir);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const run = spawnSync("npm", ["run", "bundle", "--silent"], { cwd: pkgDir, encoding: "utf8" });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stderr).toContain("no node_modules");
  expect(run.stdout).toMatch(/^petstore-mcp\.mcpb: \d+ files, \d+ bytes, sha256 [0-9a-f]{64}$/m);
  bundle = join(pkgDir, "petstore-mcp.mcpb");
});

describe("npm run bundle (MCPB 0.3)", () => {
  it("mcpb validate accepts the generated manifest", () => {
    const run = mcpb(["validate", join(pkgDir, "manifest.json")]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("Manifest schema validation passes");
  });

  it("the bundle unpacks (mcpb unpack) with the manifest at its root and the entry point inside", () => {
    mkdirSync(unpacked);
    expect(readdirSync(unpacked)).toEqual([]);
    const run = mcpb(["unpack", bundle, unpacked]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(unpacked, "manifest.json"), "utf8")).toBe(
      readFileSync(join(pkgDir, "manifest.json"), "utf8"),
    );
    expect(existsSync(join(unpacked, BUNDLE_ENTRY_POINT))).toBe(true);
    // Compiled code only: no TypeScript sources, no tsx.
    expect(existsSync(join(unpacked, "src"))).toBe(false);
    // The system's unzip agrees the archive is sound (CRCs, directory).
    const unzip = spawnSync("unzip", ["-tq", bundle], { encoding: "utf8" });
    if (!unzip.error) expect(unzip.status, unzip.stdout).toBe(0);
  });

  it("unpacked, starts with its manifest's mcp_config and answers tools/list to the SDK client", async () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
    const config = manifest.server.mcp_config as { command: string; args: string[]; env: Record<string, string> };
    const userConfig = manifest.user_config as UserConfig;
    const values: Record<string, string> = { petstore_api_key: "test-key" };
    for (const [key, option] of Object.entries(userConfig)) if (!option.sensitive) values[key] = String(option.default);
    const fill = (text: string) =>
      text
        .replaceAll(`\${__dirname}`, unpacked)
        .replace(/\$\{user_config\.([a-z0-9_]+)\}/g, (_, key: string) => values[key] ?? "");
    expect(config.command).toBe("node");
    const env = Object.fromEntries(Object.entries(config.env).map(([name, value]) => [name, fill(value)]));
    expect(env).toMatchObject({ PETSTORE_API_KEY: "test-key", MCP_MODE: "all", MCP_READ_ONLY: "false" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: config.args.map(fill),
      env: { PATH: process.env.PATH ?? "", ...env },
      cwd: unpacked,
      stderr: "pipe",
    });
    const client = new Client({ name: "mcpb-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ version: "1.0.0" });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["listPets", "createPet", "getPet", "deletePet", "inventory"]),
      );
    } finally {
      await client.close();
    }
  });
});
