/**
 * Issue 27 item 14, through the real CLI: JavaScript planted in a runtime cache folder that others can
 * write (a shared MCPGEN_CACHE_DIR) went into dist/ and ran when the server started. Now such a folder
 * is not used, and generate says so (CACHE_DIR_UNSAFE).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "./support.ts";

const PLANTED = 'console.error("PLANTED");\n';
const TARGET = "runtime/server/server.ts";

function mcpgen(cwd: string, cache: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, MCPGEN_CACHE_DIR: cache, MCPGEN_CACHE: "" },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Prepends code to the cached JavaScript of TARGET, in whatever layout the cache file has. */
function plant(cache: string): void {
  for (const name of readdirSync(cache).filter((n) => n.endsWith(".json"))) {
    const file = join(cache, name);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    const entry = stored.files?.[TARGET] ?? stored[TARGET];
    if (typeof entry === "string") stored[TARGET] = PLANTED + entry;
    else entry.js = PLANTED + entry.js;
    writeFileSync(file, JSON.stringify(stored));
  }
}

describe("a runtime cache folder others can write", () => {
  it("is not used: dist/ gets freshly transpiled JavaScript, and generate warns", () => {
    const cwd = scratchDir("cache-planted");
    const cache = join(cwd, "shared-cache");
    writeFileSync(
      join(cwd, "spec.yaml"),
      "server: { name: demo, version: 1.0.0, registryName: io.github.mcpgen-examples/demo }\ntools: []\n",
    );
    expect(mcpgen(cwd, cache, "generate", "spec.yaml", "--out", "first").code).toBe(0);
    plant(cache);
    chmodSync(cache, 0o777);
    const run = mcpgen(cwd, cache, "generate", "spec.yaml", "--out", "second");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(cwd, "second/dist/runtime/server/server.js"), "utf8")).not.toContain("PLANTED");
    expect(run.stdout).toContain(`warning CACHE_DIR_UNSAFE: the runtime cache '${cache}' is writable by other users`);
  });
});
