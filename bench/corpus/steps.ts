/**
 * One document of the corpus, through both generators: generate, type-check strict, serve tools/list.
 * mcpgen's package and openapi-mcp-generator's project are written under .tmp/corpus/ (inside the
 * repository, so both resolve its node_modules) and removed afterwards unless kept.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { listTools } from "./list-tools.ts";
import { DIRECTORY, ROOT } from "./sample.ts";

export const SCRATCH = join(ROOT, ".tmp/corpus");
const NODE = process.execPath;
const MCPGEN = join(ROOT, "bin/mcpgen.js");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const PEER = join(ROOT, "node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js");
const MINUTES = 60_000;

export type Stage = "generate" | "compile" | "serve";
export type Outcome = {
  /** The first stage that failed, or undefined when all three passed. */
  failedAt?: Stage;
  reason?: string;
  tools?: number;
  /** Tools whose inputSchema has no properties (the peer's loss on recursive schemas shows here). */
  emptySchemas?: number;
  /** Diagnostic codes of mcpgen's run (warnings included), with their counts. */
  codes?: Record<string, number>;
};
export type DocumentResult = { doc: string; ours: Outcome; peer?: Outcome };

export async function runDocument(doc: string, options: { peer: boolean; keep?: boolean }): Promise<DocumentResult> {
  const slug = doc.replace(/[^A-Za-z0-9.-]+/g, "_");
  const file = join(DIRECTORY, doc);
  const ours = await runOurs(file, join(SCRATCH, "ours", slug));
  const peer = options.peer ? await runPeer(file, join(SCRATCH, "peer", slug)) : undefined;
  if (!options.keep) {
    rmSync(join(SCRATCH, "ours", slug), { recursive: true, force: true });
    rmSync(join(SCRATCH, "peer", slug), { recursive: true, force: true });
  }
  return { doc, ours, ...(peer ? { peer } : {}) };
}

async function runOurs(file: string, out: string): Promise<Outcome> {
  rmSync(out, { recursive: true, force: true });
  const generated = await run(NODE, [MCPGEN, "generate", file, "--out", out, "--format", "json"], 10 * MINUTES);
  const codes: Record<string, number> = {};
  let errors: string[] = [];
  try {
    // generate --format json prints one report object; its diagnostics are one of its fields.
    const report = JSON.parse(generated.stdout) as {
      diagnostics: Array<{ code: string; severity: string; message: string }>;
    };
    const diagnostics = report.diagnostics;
    for (const d of diagnostics) codes[d.code] = (codes[d.code] ?? 0) + 1;
    errors = diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}: ${d.message}`);
  } catch {
    // not JSON: the process failed before printing diagnostics; the reason is in its output
  }
  if (generated.code !== 0) return { failedAt: "generate", reason: errors[0] ?? generated.summary, codes };
  const compiled = await run(NODE, [TSC, "-p", out, "--noEmit"], 10 * MINUTES);
  if (compiled.code !== 0) return { failedAt: "compile", reason: compiled.summary, codes };
  const served = await listTools(NODE, ["--import", "tsx", join(out, "src/server.ts")], { cwd: ROOT });
  if (!served.ok) return { failedAt: "serve", reason: served.reason, codes };
  return { tools: served.tools, emptySchemas: served.emptySchemas, codes };
}

async function runPeer(file: string, out: string): Promise<Outcome> {
  rmSync(out, { recursive: true, force: true });
  const generated = await run(NODE, [PEER, "-i", file, "-o", out, "--force"], 10 * MINUTES);
  if (generated.code !== 0) return { failedAt: "generate", reason: generated.summary };
  // The peer's own tsconfig (strict: true).
  const compiled = await run(NODE, [TSC, "-p", out, "--noEmit"], 10 * MINUTES);
  if (compiled.code !== 0) return { failedAt: "compile", reason: compiled.summary };
  const served = await listTools(NODE, ["--import", "tsx", join(out, "src/index.ts")], { cwd: ROOT });
  if (!served.ok) return { failedAt: "serve", reason: served.reason };
  return { tools: served.tools, emptySchemas: served.emptySchemas };
}

type Ran = { code: number | null; stdout: string; summary: string };

/** Runs a process to its end (or its deadline, then kills its group); `summary` explains a failure. */
function run(command: string, args: string[], timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let tail = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      tail = (tail + chunk).slice(-4000);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      const tsError = /error (TS\d+): ([^\n]{0,120})/.exec(tail);
      const summary = timedOut
        ? `gave up after ${timeoutMs / 1000} s`
        : tsError
          ? `${tsError[1]}: ${tsError[2]}`
          : (tail.trim().split("\n").at(-1) ?? "").slice(0, 200);
      resolve({ code: timedOut ? null : code, stdout, summary });
    });
  });
}
