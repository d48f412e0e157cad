// The facts a reader needs to compare two runs: Node version, CPUs, load, date, commit.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { ROOT } from "./paths.ts";

export function describeEnvironment(): string {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" }).trim();
    if (dirty) commit += " + uncommitted changes";
  } catch {
    // not a git checkout: leave "unknown"
  }
  const cpuList = cpus();
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  return [
    `Node ${process.version}, ${cpuList.length} CPU (${cpuList[0]?.model.trim() ?? "?"}),`,
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average at start ${load};`,
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}.`,
  ].join(" ");
}
