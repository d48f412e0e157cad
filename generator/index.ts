/**
 * The mcpgen pipeline, one stage per module:
 *   load (file → IR) → validate (MCP rules over the IR) → normalize (names, shared definitions: the
 *   package model, buildModel) → render (files) → write.
 * Stages report into a DiagnosticBag and never throw; the CLI decides the exit code.
 */

import { existsSync, statSync } from "node:fs";
import { loadValid, reportRenderFailure } from "./build-model.ts";
import { catalog } from "./diagnostics/catalog.ts";
import { type Diagnostic, DiagnosticBag } from "./diagnostics/diagnostic.ts";
import { sha256 } from "./hash.ts";
import { boundHeapGrowth } from "./heap-growth.ts";
import type { Loaded, LoadOptions } from "./load.ts";
import { pascalCase } from "./normalize/naming.ts";
import { type Model, normalize } from "./normalize/normalize.ts";
import { cacheDirectory, cacheDirectoryProblem, pruneCache } from "./output/cache-folder.ts";
import {
  fingerprintKey,
  forgetFingerprint,
  isIntact,
  listedFiles,
  readFingerprint,
  userFiles,
  writeFingerprint,
} from "./output/fingerprint.ts";
import { checkHandlerImports } from "./output/handler-imports.ts";
import { OutputDir } from "./output/output-dir.ts";
import { OWNERSHIP_FILE } from "./output/ownership.ts";
import { checkServerJsonVersion } from "./output/server-json-drift.ts";
import { Staging } from "./output/staging.ts";
import type { SurfaceChange } from "./output/surface-diff.ts";
import { userSources } from "./output/user-sources.ts";
import { applyWrite, planWrite, type WriteOutcome, type WritePlan } from "./output/write.ts";
import { progress } from "./progress.ts";
import type { RenderedFile } from "./render/index.ts";
import type { ToolsListCost } from "./render/token-cost.ts";
import { warmUp } from "./render/validators-pool.ts";

export { type BuildOptions, type BuiltModel, buildModel } from "./build-model.ts";
export type { Model } from "./normalize/normalize.ts";

export type ExitCode = 0 | 1 | 2;
export type CheckResult = { diagnostics: Diagnostic[]; exitCode: ExitCode };

/** `mcpgen validate`: load and check each file, collecting every diagnostic of every file. */
export function validateFiles(files: string[], options: LoadOptions = {}): CheckResult {
  const bag = new DiagnosticBag();
  for (const file of files) loadValid(file, bag, options);
  return { diagnostics: bag.sorted(), exitCode: exitCodeOf(bag.items) };
}

/** 2 when a file could not be read at all, 1 when a spec has errors, 0 otherwise (docs/command-line.md). */
export function exitCodeOf(diagnostics: Diagnostic[]): ExitCode {
  if (diagnostics.some((d) => "usage" in catalog[d.code])) return 2;
  return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
}

const LARGE_SPEC_BYTES = 1024 * 1024;

/** `force`: write even where `--out` holds files mcpgen did not write (they become mcpgen's). */
export type GenerateOptions = LoadOptions & { check?: boolean; force?: boolean };
/** `toolsList`: what the package's tools/list costs in tokens, per mode (absent when it has no tools). */
export type GenerateResult = {
  diagnostics: Diagnostic[];
  outcome?: WriteOutcome;
  surface: SurfaceChange[];
  toolsList?: ToolsListCost;
  /** Files of dist/ this run wrote (compiled or bundled anew); absent when none. */
  distWritten?: number;
};

/**
 * generate's exit code, the one every output format reports: validate's; nothing generated is never 0;
 * and with --check, drift or a handler that does not type-check fails too (a CI bot reading
 * `--format json` once read exit 0 beside `"upToDate": false`).
 */
export function generateExitCode(result: GenerateResult, check: boolean): ExitCode {
  const code = exitCodeOf(result.diagnostics);
  if (code !== 0) return code;
  if (result.outcome === undefined) return 1;
  if (!check) return 0;
  const drift = isUpToDate(result.outcome) ? 0 : 1;
  return result.diagnostics.some((d) => d.code === "HANDLER_TYPE_ERROR") ? 1 : drift;
}

/** True when generating would change no file: --check's question. */
export function isUpToDate(outcome: WriteOutcome): boolean {
  return outcome.changed.length + outcome.created.length + outcome.removed.length + outcome.renamed.length === 0;
}

/** How many files a diagnostic names before it says "and N more". */
const LISTED = 20;

/**
 * `mcpgen generate`: the package for `specPath` in `outDir`, or the diagnostics that say why not. A run
 * whose inputs and output are as the last run left them returns that run's result without rendering.
 */
export async function generate(
  specPath: string,
  outDir: string,
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const dir = new OutputDir(outDir);
  const specRef = dir.relative(specPath);
  const key = fingerprintKey(specPath, specRef, options);
  const unchanged = key === undefined ? undefined : unchangedSinceLastRun(dir, key);
  if (unchanged) {
    if (options.check === true) return unchanged;
    // A dist/ that cannot be completed takes the full path, which reports why.
    const written = await completeDist(dir);
    if (written !== false) return written > 0 ? { ...unchanged, distWritten: written } : unchanged;
  }
  warmUpForLargeSpec(specPath);
  const bag = new DiagnosticBag();
  let distWritten = 0;
  const done = (outcome?: WriteOutcome, surface: SurfaceChange[] = [], toolsList?: ToolsListCost): GenerateResult => ({
    diagnostics: bag.sorted(),
    outcome,
    surface,
    ...(toolsList ? { toolsList } : {}),
    ...(distWritten > 0 ? { distWritten } : {}),
  });

  // buildModel's stages, with the output check before normalize: a spec with errors is reported as such
  // whatever --out is, and normalizing is a stage of its own below it.
  const loaded = loadValid(specPath, bag, options);
  if (!loaded || !outputIsDirectory(dir, bag)) return done();
  // The rules have reported; what is left to report (a render failure) finds its position again.
  loaded.release?.();
  // Large files wait beside --out from when they are made until the write moves them in (staging.ts);
  // whatever is left there goes when the run ends, however it ends.
  const staging = new Staging(dir.root);
  try {
    // What the rest needs of the spec, so its document and IR (Graph's: 150 MB) are garbage once rendered.
    const externalRefs = loaded.server.externalRefs === true;
    const rendered = await renderPackage(loaded, specRef, dir, staging);
    if (!rendered) return done();
    const { surface, toolsList, typeRenames } = rendered;
    const plan = writePackage(dir, rendered.files, specPath, options, bag);
    if (!plan) return done();
    // Past the write, the generated files' text is needed only by --check (which wrote none of it): the
    // rest keeps their digests, and the text (Graph's: 210 MB) is garbage before dist/ is compiled.
    const generated = generatedDigests(rendered.files);
    const files = options.check === true ? rendered.files : rendered.files.filter((file) => file.owner === "user");
    rendered.files = [];
    reportObsoleteHandlers(dir, plan, specPath, bag);
    if (options.check !== true) distWritten = await compileDist(dir, plan.outcome.removed, bag);
    if (options.check === true) checkServerJsonVersion(dir, bag);
    await checkUserHandlers(dir, files, bag, options.check === true, typeRenames);
    checkHandlerImports(dir, files, bag);
    if (options.check !== true) recordRun(dir, key, generated, plan.outcome, bag, externalRefs, toolsList);
    pruneCache();
    return done(plan.outcome, surface, toolsList);
  } finally {
    staging.dispose();
  }
}

/** Nothing changed since the last run (same inputs, same mcpgen, files as written): its result, at once. */
function unchangedSinceLastRun(dir: OutputDir, key: string): GenerateResult | undefined {
  const recorded = readFingerprint(dir);
  if (!recorded || recorded.key !== key || !isIntact(dir, recorded)) return undefined;
  const { diagnostics, files, obsolete, toolsList } = recorded;
  const unchanged = Object.keys(files);
  const outcome = { changed: [], missing: [], created: [], renamed: [], removed: [], obsolete, unchanged };
  return { diagnostics, outcome, surface: [], ...(toolsList ? { toolsList } : {}) };
}

/**
 * dist/ from the package now on disk, handlers included (output/compile-dist.ts): `node dist/server.js`
 * runs what this run wrote. `--check` compiles nothing (dist/ is build output, not compared).
 */
async function compileDist(dir: OutputDir, removed: string[], bag: DiagnosticBag): Promise<number> {
  progress.stage("compiling dist/");
  reportUnsafeCache(bag);
  try {
    const { writeDist } = await import("./output/compile-dist.ts");
    return await writeDist(dir, removed);
  } catch (error) {
    outputReport(dir, bag)("WRITE_FAILED", "", `cannot write '${dir.display("dist")}': ${(error as Error).message}`);
    return 0;
  }
}

/** A run that changed nothing still puts back a dist/ the user deleted (or never had): the files it wrote
 * (0: dist/ was complete), or false if it cannot. */
async function completeDist(dir: OutputDir): Promise<number | false> {
  const { distIsComplete } = await import("./output/dist-paths.ts");
  if (distIsComplete(dir, [...dir.list("src"), ...dir.list("runtime")])) return 0;
  try {
    const { writeDist } = await import("./output/compile-dist.ts");
    return await writeDist(dir);
  } catch {
    return false;
  }
}

/** A large spec will compile its validators on every core: start those workers while it is read; and keep
 * its garbage from piling up (heap-growth.ts). */
function warmUpForLargeSpec(specPath: string): void {
  const spec = statSync(specPath, { throwIfNoEntry: false });
  if (!spec?.isFile() || spec.size <= LARGE_SPEC_BYTES) return;
  boundHeapGrowth();
  warmUp();
}

/** Diagnostics about the output directory as a whole point at `--out` as the user typed it. */
function outputReport(dir: OutputDir, bag: DiagnosticBag) {
  return bag.reporter(dir.shown, () => ({ line: 1, col: 1 }));
}

function outputIsDirectory(dir: OutputDir, bag: DiagnosticBag): boolean {
  if (!existsSync(dir.root) || statSync(dir.root).isDirectory()) return true;
  outputReport(dir, bag)("OUTPUT_NOT_DIRECTORY", "", `'${dir.shown}' exists and is not a directory`);
  return false;
}

/** `typeRenames`: a renamed tool's former type names (`GetPricingInput`) and its current ones, for handlers. */
type RenderedPackage = {
  files: RenderedFile[];
  surface: SurfaceChange[];
  toolsList?: ToolsListCost;
  typeRenames: Map<string, string>;
};

/** normalize → render, and how the MCP surface differs from the package on disk; RENDER_FAILED if a library throws. */
async function renderPackage(
  loaded: Loaded,
  specRef: string,
  dir: OutputDir,
  staging: Staging,
): Promise<RenderedPackage | undefined> {
  // The heavy stages load only when there is work for them (ts-morph alone takes 0.4 s).
  const [{ render }, { catalogData }, { surfaceDiff, surfaceOnDisk }, { packageCost }] = await Promise.all([
    import("./render/index.ts"),
    import("./render/definition.ts"),
    import("./output/surface-diff.ts"),
    import("./render/package-cost.ts"),
  ]);
  try {
    progress.stage("normalizing the tools' schemas");
    const model = normalize(loaded.server, specRef);
    const renames = new Map<string, string>();
    for (const { node } of model.tools) if (node.renamedFrom) renames.set(node.name, node.renamedFrom);
    // Before render, which drops the catalog objects once it has written them out (definition.ts).
    const surface = surfaceDiff(surfaceOnDisk(dir), catalogData(model), renames);
    const files = await render(model, userSources(dir), staging);
    const typeRenames = renamedToolTypes(model);
    // Counted once per model: the README has already asked for the same figures.
    if (model.tools.length === 0) return { files, surface, typeRenames };
    const { perTool: _perTool, dynamic, ...toolsList } = packageCost(model);
    const hasDynamic = model.features.some((f) => f.name === "dynamic");
    return { files, surface, typeRenames, toolsList: hasDynamic ? { ...toolsList, dynamic } : toolsList };
  } catch (error) {
    reportRenderFailure(loaded.report, error);
    return undefined;
  }
}

/** A runtime cache folder others can write is not used (its JavaScript would run at start): say so, once per run. */
function reportUnsafeCache(bag: DiagnosticBag): void {
  const folder = cacheDirectory();
  const problem = folder === undefined ? undefined : cacheDirectoryProblem(folder);
  if (folder === undefined || problem === undefined) return;
  bag.reporter(folder, () => ({ line: 1, col: 1 }))(
    "CACHE_DIR_UNSAFE",
    "",
    `the runtime cache '${folder}' ${problem}: not used (dist/ is transpiled afresh)`,
  );
}

/** Plans the write, refusing files in `--out` mcpgen did not write, and carries it out unless --check. */
function writePackage(
  dir: OutputDir,
  files: RenderedFile[],
  specPath: string,
  options: GenerateOptions,
  bag: DiagnosticBag,
): WritePlan | undefined {
  const report = outputReport(dir, bag);
  progress.stage(`writing ${files.length} files`);
  try {
    const inputs = [specPath, options.openapi?.config ?? ""].filter(Boolean).map((p) => dir.relative(p));
    const plan = planWrite(dir, files, options.force === true, inputs);
    if (reportOutside(dir, plan, report)) return undefined;
    if (plan.conflicts.length > 0) {
      const named = plan.conflicts.slice(0, LISTED).join(", ");
      const more = plan.conflicts.length > LISTED ? ` and ${plan.conflicts.length - LISTED} more` : "";
      const count = `${plan.conflicts.length} file${plan.conflicts.length === 1 ? "" : "s"}`;
      report("OUTPUT_NOT_OWNED", "", `'${dir.shown}' holds ${count} mcpgen did not write: ${named}${more}`);
      return undefined;
    }
    if (options.check !== true) applyWrite(dir, files, plan);
    return plan;
  } catch (error) {
    report("WRITE_FAILED", "", `cannot write into '${dir.shown}': ${(error as Error).message}`);
    return undefined;
  }
}

/** A hostile ownership record or a symbolic link out of `--out`: nothing is written (not even with --force). */
function reportOutside(dir: OutputDir, plan: WritePlan, report: ReturnType<typeof outputReport>): boolean {
  const record = dir.display(OWNERSHIP_FILE);
  const refused = plan.refused.map(
    (path) => `'${record}' lists '${path}', which is not a plain path inside '${dir.shown}'`,
  );
  const linked = plan.linkedOut.map(
    (path) => `'${dir.display(path)}' leads out of '${dir.shown}' through a symbolic link`,
  );
  const messages = [...refused, ...linked];
  for (const message of messages.slice(0, LISTED)) report("OUTPUT_PATH_OUTSIDE", "", message);
  if (messages.length > LISTED)
    report("OUTPUT_PATH_OUTSIDE", "", `and ${messages.length - LISTED} more paths out of '${dir.shown}'`);
  return messages.length > 0;
}

/** Handlers scaffolded for entries the spec no longer has: kept (they are the user's), and named. */
function reportObsoleteHandlers(dir: OutputDir, plan: WritePlan, specPath: string, bag: DiagnosticBag): void {
  for (const file of plan.outcome.obsolete) {
    bag.reporter(dir.display(file), () => ({ line: 1, col: 1 }))(
      "HANDLER_OBSOLETE",
      "",
      `'${file}' was scaffolded for ${plan.ownership.scaffolded[file]}, which ${specPath} no longer has`,
    );
  }
}

/**
 * Type-checks the user's handlers; --check wrote nothing, so against the generated files it would write.
 * A handler still exactly as this run scaffolds it is left out: it is generated code, which type-checks
 * by construction (every golden package compiles under tsc --strict, scaffolds included), and a first
 * generate of a large API would otherwise spend seconds checking hundreds of untouched stubs.
 */
async function checkUserHandlers(
  dir: OutputDir,
  files: RenderedFile[],
  bag: DiagnosticBag,
  check: boolean,
  typeRenames: Map<string, string>,
) {
  const handlers = files.filter((f) => f.owner === "user" && dir.read(f.path) !== f.content).map((f) => f.path);
  if (handlers.length === 0) return;
  progress.stage("type-checking handlers");
  const { checkHandlers } = await import("./output/check-handlers.ts");
  checkHandlers(dir, handlers, bag, check ? files.filter((f) => f.owner === "mcpgen") : [], typeRenames);
}

/** A renamed tool's handler keeps importing the types of its former name: which names they have now. */
function renamedToolTypes(model: Model): Map<string, string> {
  const renamed = new Map<string, string>();
  for (const tool of model.tools) {
    if (!tool.node.renamedFrom) continue;
    const [former, now] = [pascalCase(tool.node.renamedFrom), tool.inputType.slice(0, -"Input".length)];
    for (const suffix of ["Input", "Output", "Result"]) renamed.set(`${former}${suffix}`, `${now}${suffix}`);
  }
  return renamed;
}

/** Each generated file's SHA-256, by path: what the run record keeps of them. */
function generatedDigests(files: RenderedFile[]): Record<string, string> {
  return Object.fromEntries(
    files.filter((f) => f.owner === "mcpgen").map((f) => [f.path, f.staged?.digest ?? sha256(f.content)]),
  );
}

/**
 * Records this run for the next one's short-cut (unchangedSinceLastRun), or forgets the last record
 * when this run's outcome does not follow from the key alone: errors, or $refs into other files.
 */
function recordRun(
  dir: OutputDir,
  key: string | undefined,
  generated: Record<string, string>,
  outcome: WriteOutcome,
  bag: DiagnosticBag,
  externalRefs: boolean,
  toolsList: ToolsListCost | undefined,
): void {
  if (key === undefined || bag.hasErrors || externalRefs) {
    forgetFingerprint(dir);
    return;
  }
  writeFingerprint(dir, {
    key,
    files: generated,
    listed: listedFiles(dir),
    user: userFiles(dir, generated),
    diagnostics: bag.sorted(),
    obsolete: outcome.obsolete,
    ...(toolsList ? { toolsList } : {}),
  });
}
