/**
 * The mcpgen pipeline, one stage per module:
 *   load (file → IR) → validate (MCP rules over the IR) → normalize (names) → render (files) → write.
 * Stages report into a DiagnosticBag and never throw; the CLI decides the exit code.
 */
import { existsSync, statSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { catalog } from "./catalog.ts";
import { type Diagnostic, DiagnosticBag } from "./diagnostics.ts";
import {
  fingerprintKey,
  forgetFingerprint,
  isIntact,
  listedFiles,
  readFingerprint,
  userFiles,
  writeFingerprint,
} from "./fingerprint.ts";
import { sha256 } from "./hash.ts";
import { type LoadOptions, load } from "./load.ts";
import { OutputDir } from "./output-dir.ts";
import { progress } from "./progress.ts";
import type { RenderedFile } from "./render/index.ts";
import { warmUp } from "./render/validators-pool.ts";
import type { SurfaceChange } from "./surface-diff.ts";
import { userSources } from "./user-sources.ts";
import { validate } from "./validate.ts";
import { applyWrite, planWrite, type WriteOutcome, type WritePlan } from "./write.ts";

export type ExitCode = 0 | 1 | 2;
export type CheckResult = { diagnostics: Diagnostic[]; exitCode: ExitCode };

/** `mcpgen validate`: load and check each file, collecting every diagnostic of every file. */
export function validateFiles(files: string[], options: LoadOptions = {}): CheckResult {
  const bag = new DiagnosticBag();
  for (const file of files) {
    const loaded = load(file, bag, options);
    if (loaded) validate(loaded.server, loaded.report);
  }
  return { diagnostics: bag.sorted(), exitCode: exitCodeOf(bag.items) };
}

/** 2 when a file could not be read at all, 1 when a spec has errors, 0 otherwise (CONTRACT §1). */
export function exitCodeOf(diagnostics: Diagnostic[]): ExitCode {
  if (diagnostics.some((d) => "usage" in catalog[d.code])) return 2;
  return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
}

const LARGE_SPEC_BYTES = 1024 * 1024;

/** `force`: write even where `--out` holds files mcpgen did not write (they become mcpgen's). */
export type GenerateOptions = LoadOptions & { check?: boolean; force?: boolean };
export type GenerateResult = { diagnostics: Diagnostic[]; outcome?: WriteOutcome; surface: SurfaceChange[] };

/** generate's exit code: validate's, and with --check a handler that does not type-check fails too. */
export function generateExitCode(result: GenerateResult, check: boolean): ExitCode {
  const code = exitCodeOf(result.diagnostics);
  if (code === 0 && check && result.diagnostics.some((d) => d.code === "HANDLER_TYPE_ERROR")) return 1;
  return code;
}

/** How many files a diagnostic names before it says "and N more". */
const LISTED = 20;

export async function generate(
  specPath: string,
  outDir: string,
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const dir = new OutputDir(outDir);
  const specRef = relative(dir.root, resolve(specPath)).split(sep).join("/");
  const key = fingerprintKey(specPath, specRef, options);
  // Nothing changed since the last run (same inputs, same mcpgen, files as written): say so at once.
  const recorded = key === undefined ? undefined : readFingerprint(dir);
  if (recorded && recorded.key === key && isIntact(dir, recorded)) {
    const { diagnostics, files, obsolete } = recorded;
    const unchanged = Object.keys(files);
    const outcome = { changed: [], missing: [], created: [], renamed: [], removed: [], obsolete, unchanged };
    return { diagnostics, outcome, surface: [] };
  }
  // A large spec will compile its validators on every core: start those workers while it is read.
  const spec = statSync(specPath, { throwIfNoEntry: false });
  if (spec?.isFile() && spec.size > LARGE_SPEC_BYTES) warmUp();
  const bag = new DiagnosticBag();
  const done = (outcome?: WriteOutcome, surface: SurfaceChange[] = []): GenerateResult => ({
    diagnostics: bag.sorted(),
    outcome,
    surface,
  });
  const loaded = load(specPath, bag, options);
  if (loaded) validate(loaded.server, loaded.report);
  if (!loaded || bag.hasErrors) return done();

  const report = bag.reporter(outDir, () => ({ line: 1, col: 1 }));
  if (existsSync(dir.root) && !statSync(dir.root).isDirectory()) {
    report("OUTPUT_NOT_DIRECTORY", "", `'${outDir}' exists and is not a directory`);
    return done();
  }
  // The heavy stages load only when there is work for them (ts-morph alone takes 0.4 s).
  const [{ normalize }, { render }, { catalogData }, { surfaceDiff, surfaceOnDisk }] = await Promise.all([
    import("./normalize.ts"),
    import("./render/index.ts"),
    import("./render/manifest.ts"),
    import("./surface-diff.ts"),
  ]);
  let files: RenderedFile[];
  let surface: SurfaceChange[];
  try {
    progress.stage("rendering the package");
    const model = normalize(loaded.server, specRef);
    files = await render(model, userSources(dir));
    const renames = new Map<string, string>();
    for (const { node } of model.tools) if (node.renamedFrom) renames.set(node.name, node.renamedFrom);
    surface = surfaceDiff(surfaceOnDisk(dir.root), catalogData(model) as never, renames);
  } catch (error) {
    // A spec that passed every rule must render; if a library still throws, the user gets one clear
    // diagnostic (and nothing written) instead of a stack trace.
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, 300);
    // types.ts names the schema that broke, when it can find it: the diagnostic points there.
    const pointer = (error as { pointer?: unknown }).pointer;
    const at = typeof pointer === "string" ? pointer : "";
    loaded.report("RENDER_FAILED", at, `cannot render the package: ${message}`);
    return done();
  }

  const check = options.check === true;
  let plan: WritePlan;
  progress.stage(`writing ${files.length} files`);
  try {
    const inputs = [specPath, options.openapi?.config ?? ""].filter(Boolean).map((p) => dir.relative(p));
    plan = planWrite(dir, files, options.force === true, inputs);
    if (plan.conflicts.length > 0) {
      const named = plan.conflicts.slice(0, LISTED).join(", ");
      const more = plan.conflicts.length > LISTED ? ` and ${plan.conflicts.length - LISTED} more` : "";
      const count = `${plan.conflicts.length} file${plan.conflicts.length === 1 ? "" : "s"}`;
      report("OUTPUT_NOT_OWNED", "", `'${outDir}' holds ${count} mcpgen did not write: ${named}${more}`);
      return done();
    }
    if (!check) applyWrite(dir, files, plan);
  } catch (error) {
    report("WRITE_FAILED", "", `cannot write into '${outDir}': ${(error as Error).message}`);
    return done();
  }
  const { outcome } = plan;
  for (const file of outcome.obsolete) {
    bag.reporter(dir.display(file), () => ({ line: 1, col: 1 }))(
      "HANDLER_OBSOLETE",
      "",
      `'${file}' was scaffolded for ${plan.ownership.scaffolded[file]}, which ${specPath} no longer has`,
    );
  }
  const handlers = files.filter((f) => f.owner === "user").map((f) => f.path);
  if (handlers.length > 0) {
    progress.stage("type-checking handlers");
    const { checkHandlers } = await import("./check-handlers.ts");
    // --check wrote nothing: its handlers are checked against the generated files it would write.
    checkHandlers(dir, handlers, bag, check ? files.filter((f) => f.owner === "mcpgen") : []);
  }
  if (check) return done(outcome, surface);
  if (key === undefined || bag.hasErrors || loaded.server.externalRefs) forgetFingerprint(dir);
  else {
    const generated = Object.fromEntries(
      files.filter((f) => f.owner === "mcpgen").map((f) => [f.path, sha256(f.content)]),
    );
    writeFingerprint(dir, {
      key,
      files: generated,
      listed: listedFiles(dir),
      user: userFiles(dir, generated),
      diagnostics: bag.sorted(),
      obsolete: outcome.obsolete,
    });
  }
  return done(outcome, surface);
}
