/**
 * The front half of the pipeline, load → validate → normalize, as one call: what `generate` renders,
 * and what tests and tools that want the package model (not files) start from.
 */
import { sep } from "node:path";
import { type Diagnostic, DiagnosticBag, type Report } from "./diagnostics/diagnostic.ts";
import { type Loaded, type LoadOptions, load } from "./load.ts";
import { type Model, normalize } from "./normalize/normalize.ts";
import { validate } from "./validate.ts";

/** `specRef`: the spec's path as the generated files' do-not-edit header names it (default: `spec` as given). */
export type BuildOptions = LoadOptions & { specRef?: string };
/** `model` is set only when the spec has no errors. */
export type BuiltModel = { model?: Model; diagnostics: Diagnostic[] };

/** The package model of a spec, with every diagnostic about it. Never throws. */
export function buildModel(spec: string, options: BuildOptions = {}): BuiltModel {
  const bag = new DiagnosticBag();
  const loaded = loadValid(spec, bag, options);
  let model: Model | undefined;
  if (loaded) {
    try {
      model = normalize(loaded.server, options.specRef ?? spec.split(sep).join("/"));
    } catch (error) {
      reportRenderFailure(loaded.report, error);
    }
  }
  return { model, diagnostics: bag.sorted() };
}

/** load → validate: the IR of a spec that has no errors, or undefined (the bag says why). */
export function loadValid(spec: string, bag: DiagnosticBag, options: LoadOptions = {}): Loaded | undefined {
  const loaded = load(spec, bag, options);
  if (loaded) validate(loaded.server, loaded.report);
  return loaded && !bag.hasErrors ? loaded : undefined;
}

/**
 * A spec that passed every rule must render; if a library still throws, the user gets one clear
 * diagnostic (and nothing written) instead of a stack trace. render/types.ts names the schema that
 * broke, when it can find it: the diagnostic points there.
 */
export function reportRenderFailure(report: Report, error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, 300);
  const pointer = (error as { pointer?: unknown } | null | undefined)?.pointer;
  report("RENDER_FAILED", typeof pointer === "string" ? pointer : "", `cannot render the package: ${message}`);
}
