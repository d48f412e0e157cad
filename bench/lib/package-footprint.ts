// What a package carries (issue 28's targets): the runtime/ files and lines a generated package copies, the
// npm dependencies its package.json lists, and the bytes `npm install --omit=dev` puts in node_modules,
// against the official SDK v1 server's install in the same run. Installs go through npm's cache
// (--prefer-offline), so a second run needs no network for the same versions.
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bytes } from "./format.ts";
import { BIN, NODE, ROOT, SCRATCH } from "./paths.ts";
import type { Table } from "./results-file.ts";

export type Footprint = { files: number; lines: number; dependencies: string[]; installBytes?: number };

/** Every regular file under `dir`, recursively (symbolic links such as node_modules/.bin are not counted twice). */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((path) => join(dir, path))
    .filter((file) => lstatSync(file).isFile());

/** Bytes of the files under `dir` (what the install puts on disk, without block rounding). */
const sizeOf = (dir: string) => filesUnder(dir).reduce((sum, file) => sum + statSync(file).size, 0);

/** `npm install --omit=dev` of these dependencies into a fresh folder; undefined when npm fails (offline). */
export function installBytes(dependencies: Record<string, string>): number | undefined {
  const dir = mkdtempSync(join(SCRATCH, "install-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "footprint", private: true, dependencies }));
    const npm = spawnSync(
      "npm",
      ["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"],
      {
        cwd: dir,
        encoding: "utf8",
        timeout: 180_000,
      },
    );
    return npm.status === 0 ? sizeOf(join(dir, "node_modules")) : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Generates `spec` with `args` (whole process, as users run it) and measures what the package carries. */
export function packageFootprint(name: string, spec: string, args: readonly string[] = []): Footprint {
  mkdirSync(SCRATCH, { recursive: true });
  const out = join(SCRATCH, "footprint", name);
  rmSync(out, { recursive: true, force: true });
  const run = spawnSync(NODE, [BIN.mcpgen, "generate", spec, "--out", out, ...args], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`mcpgen generate ${spec} failed: ${run.stderr.slice(-1000)}`);
  const sources = filesUnder(join(out, "runtime")).filter((file) => file.endsWith(".ts"));
  const lines = sources.reduce((sum, file) => sum + readFileSync(file, "utf8").split("\n").length - 1, 0);
  const manifest = JSON.parse(readFileSync(join(out, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const dependencies = manifest.dependencies ?? {};
  return {
    files: sources.length,
    lines,
    dependencies: Object.keys(dependencies),
    installBytes: installBytes(dependencies),
  };
}

/** The table: weather with default features and with every feature, GitHub's default, and SDK v1's install. */
export function footprintTable(githubSpec: string | undefined): Table {
  const weather = `${ROOT}specs/weather.yaml`;
  const rows: string[][] = [];
  const row = (label: string, footprint: Footprint) =>
    rows.push([
      label,
      `${footprint.files} / ${footprint.lines.toLocaleString("en-US")}`,
      footprint.dependencies.join(", ") || "none",
      footprint.installBytes === undefined ? "not measured (npm install failed)" : bytes(footprint.installBytes),
    ]);
  row(
    "specs/weather.yaml, default features (target ≤ 70 files / 8,000 lines, ≤ 8 MiB)",
    packageFootprint("weather", weather),
  );
  row("specs/weather.yaml, --features all", packageFootprint("weather-all", weather, ["--features", "all"]));
  if (githubSpec) row("GitHub, default features (dynamic)", packageFootprint("github", githubSpec));
  const sdkVersion = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  ).devDependencies["@modelcontextprotocol/sdk"];
  const sdk = installBytes({ "@modelcontextprotocol/sdk": sdkVersion });
  rows.push([
    `SDK v1 server (@modelcontextprotocol/sdk@${sdkVersion})`,
    "–",
    "@modelcontextprotocol/sdk",
    sdk === undefined ? "not measured" : bytes(sdk),
  ]);
  return { headers: ["package", "runtime/ .ts files / lines", "dependencies", "npm install --omit=dev"], rows };
}
