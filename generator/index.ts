/**
 * The mcpgen pipeline, one stage per module:
 *   load (file → IR) → validate (MCP rules over the IR) → normalize → render → write.
 * Stages report into a DiagnosticBag and never throw; the CLI decides the exit code.
 */
import { catalog } from "./catalog.ts";
import { type Diagnostic, DiagnosticBag } from "./diagnostics.ts";
import { type LoadOptions, load } from "./load.ts";
import { validate } from "./validate.ts";

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
