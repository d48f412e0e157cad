/**
 * The mcpgen pipeline, one stage per module:
 *   load (file → IR) → validate (MCP rules over the IR) → normalize (names) → render (files) → write.
 * Stages report into a DiagnosticBag and never throw; the CLI decides the exit code.
 */
import { existsSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { catalog } from "./catalog.ts";
import { type Diagnostic, DiagnosticBag } from "./diagnostics.ts";
import {
  fingerprintKey,
  forgetFingerprint,
  isIntact,
  listedFiles,
  readFingerprint,
  writeFingerprint,
} from "./fingerprint.ts";
import { sha256 } from "./hash.ts";
import { type LoadOptions, load } from "./load.ts";
import type { RenderedFile } from "./render/index.ts";
import { warmUp } from "./render/validators-pool.ts";
import { validate } from "./validate.ts";
import { type WriteOutcome, writeFiles } from "./write.ts";

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

export type GenerateOptions = LoadOptions & { check?: boolean };
export type GenerateResult = { diagnostics: Diagnostic[]; outcome?: WriteOutcome; surface: string[] };

export async function generate(
  specPath: string,
  outDir: string,
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const specRef = relative(resolve(outDir), resolve(specPath)).split(sep).join("/");
  const key = fingerprintKey(specPath, specRef, options);
  // Nothing changed since the last run (same inputs, same mcpgen, files as written): say so at once.
  const recorded = key === undefined ? undefined : readFingerprint(outDir);
  if (recorded && recorded.key === key && isIntact(outDir, recorded)) {
    const { diagnostics, files, obsolete } = recorded;
    const outcome = { changed: [], created: [], removed: [], obsolete, unchanged: Object.keys(files).length };
    return { diagnostics, outcome, surface: [] };
  }
  // A large spec will compile its validators on every core: start those workers while it is read.
  const spec = statSync(specPath, { throwIfNoEntry: false });
  if (spec?.isFile() && spec.size > LARGE_SPEC_BYTES) warmUp();
  const bag = new DiagnosticBag();
  const done = (outcome?: WriteOutcome, surface: string[] = []): GenerateResult => ({
    diagnostics: bag.sorted(),
    outcome,
    surface,
  });
  const loaded = load(specPath, bag, options);
  if (loaded) validate(loaded.server, loaded.report);
  if (!loaded || bag.hasErrors) return done();

  const report = bag.reporter(outDir, () => ({ line: 1, col: 1 }));
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    report("OUTPUT_NOT_DIRECTORY", "", `'${outDir}' exists and is not a directory`);
    return done();
  }
  // The heavy stages load only when there is work for them (ts-morph alone takes 0.4 s).
  const [{ normalize }, { render }, { catalogData }, { surfaceChanges, surfaceOnDisk }] = await Promise.all([
    import("./normalize.ts"),
    import("./render/index.ts"),
    import("./render/manifest.ts"),
    import("./surface-diff.ts"),
  ]);
  let files: RenderedFile[];
  let surface: string[];
  try {
    const model = normalize(loaded.server, specRef);
    files = await render(model);
    surface = surfaceChanges(surfaceOnDisk(outDir), catalogData(model) as never);
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

  let outcome: WriteOutcome;
  try {
    outcome = writeFiles(outDir, files, options.check === true);
  } catch (error) {
    report("WRITE_FAILED", "", `cannot write into '${outDir}': ${(error as Error).message}`);
    return done();
  }
  for (const file of outcome.obsolete) {
    bag.reporter(join(outDir, file), () => ({ line: 1, col: 1 }))(
      "HANDLER_OBSOLETE",
      "",
      `'${file}' is not used by any entry of ${specPath}`,
    );
  }
  if (!options.check && (outcome.changed.length > 0 || outcome.created.length > 0)) {
    const { checkHandlers } = await import("./check-handlers.ts");
    checkHandlers(
      outDir,
      files.filter((f) => f.owner === "user").map((f) => f.path),
      bag,
    );
  }
  if (options.check) return done(outcome, surface);
  if (key === undefined || bag.hasErrors || loaded.server.externalRefs) forgetFingerprint(outDir);
  else {
    const owned = files.filter((f) => f.owner === "mcpgen");
    writeFingerprint(outDir, {
      key,
      files: Object.fromEntries(owned.map((f) => [f.path, sha256(f.content)])),
      listed: listedFiles(outDir),
      // A rerun with nothing changed skips the handler type-check, so it must not replay its findings.
      diagnostics: bag.sorted().filter((d) => d.code !== "HANDLER_TYPE_ERROR"),
      obsolete: outcome.obsolete,
    });
  }
  return done(outcome, surface);
}
