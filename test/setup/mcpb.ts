/**
 * The official MCPB CLI (@anthropic-ai/mcpb, pinned in tools/mcpb with its lockfile), for the test of the
 * bundle a generated package builds. Installed beside the repository like Node 22 (test/setup/node22.ts):
 * only this repository's tests need it, so never by `npm install` of mcpgen; `npm run setup:mcpb` in CI,
 * and here, once, when missing.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
export const MCPB_CLI = join(ROOT, "tools/mcpb/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

export function ensureMcpb(): void {
  if (existsSync(MCPB_CLI)) return;
  const run = spawnSync("npm", ["run", "setup:mcpb"], { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) throw new Error("could not install the MCPB CLI into tools/mcpb (npm run setup:mcpb)");
}

/** Runs `mcpb <args>` on the Node running the tests. */
export function mcpb(args: string[], cwd = ROOT) {
  return spawnSync(process.execPath, [MCPB_CLI, ...args], { cwd, encoding: "utf8" });
}
