#!/usr/bin/env node
// mcpgen is written in TypeScript and run through tsx, so the repository needs no build step.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";

// A large spec (a GitHub-sized OpenAPI document) makes millions of short-lived objects: with V8's
// default young generation, garbage collection is an eighth of the run. Such runs restart once with a
// larger one; the flag cannot be changed from inside a running process. 32 MiB: as fast as 64 on GitHub
// (paired runs, cold and warm) with 40-60 MiB less peak memory.
const YOUNG = "--max-semi-space-size=32";
const LARGE_SPEC_BYTES = 2 * 1024 * 1024;
// Not for --watch: a long-lived parent blocked in spawnSync could not stop its child on SIGTERM.
const watching = process.argv.includes("--watch");
if (!process.execArgv.includes(YOUNG) && !watching && process.argv.slice(3).some(isLargeFile)) {
  const child = spawnSync(process.execPath, [...process.execArgv, YOUNG, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(child.status ?? 1);
}

// Imported only now: a process that restarts itself above does not load tsx first.
const { register } = await import("tsx/esm/api");
register();
// tsx turns source maps on, and Node then reads the source map comment of every module it loads (~0.1 s
// for a large generate). mcpgen never prints a stack trace, so it has no use for them.
process.setSourceMapsEnabled(false);
await import("../generator/cli.ts");

function isLargeFile(arg) {
  try {
    return !arg.startsWith("-") && statSync(arg).size > LARGE_SPEC_BYTES;
  } catch {
    return false;
  }
}
