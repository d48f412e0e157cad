/**
 * Runs one input through mcpgen the way `generate` does, and checks the outcome is one of the two
 * allowed ones: diagnostics with errors and nothing written, or a rendered package. Render runs
 * in-process (generate's last step, the handler type check, costs seconds per package, so the fuzz
 * tests type-check a sample of packages in one tsc run instead).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { catalog } from "../../generator/diagnostics/catalog.ts";
import { buildModel, generate } from "../../generator/index.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { writeFiles } from "../../generator/output/write.ts";
import { type RenderedFile, render } from "../../generator/render/index.ts";
import { ROOT, typecheck } from "../generate/support.ts";

export type CaseOutcome =
  | { kind: "diagnostics"; codes: string[] }
  | { kind: "generated"; files: RenderedFile[]; tools: number };

/** Each case gets this long (async stalls are cut off here; a synchronous loop trips the vitest timeout). */
export const CASE_LIMIT_MS = 10_000;

export async function runCase(specFile: string, outDir: string): Promise<CaseOutcome> {
  const started = Date.now();
  const outcome = await withTimeout(stages(specFile, outDir), CASE_LIMIT_MS);
  const took = Date.now() - started;
  if (took > CASE_LIMIT_MS) throw new Error(`case took ${took} ms`);
  return outcome;
}

async function stages(specFile: string, outDir: string): Promise<CaseOutcome> {
  const { model, diagnostics } = buildModel(specFile, { specRef: "spec.yaml" });
  for (const d of diagnostics) assertWellFormed(d);
  // A spec that passed every rule must normalize: buildModel's RENDER_FAILED is a defect here, not an outcome.
  const failed = diagnostics.find((d) => d.code === "RENDER_FAILED");
  if (failed) throw new Error(failed.message);
  if (!model) {
    if (!diagnostics.some((d) => d.severity === "error"))
      throw new Error("nothing built, yet no error diagnostic says why");
    // The real command on the same input: the same errors, and nothing written.
    const result = await generate(specFile, outDir);
    if (!result.diagnostics.some((d) => d.severity === "error")) throw new Error("generate found no error");
    if (result.outcome !== undefined || existsSync(outDir)) throw new Error("generate wrote files despite errors");
    return { kind: "diagnostics", codes: [...new Set(diagnostics.map((d) => d.code))].sort() };
  }
  const files = await render(model);
  return { kind: "generated", files, tools: model.tools.length };
}

function assertWellFormed(d: { code: string; line: number; col: number; message: string; severity: string }): void {
  if (!Object.hasOwn(catalog, d.code)) throw new Error(`unknown diagnostic code ${d.code}`);
  if (!(d.line >= 1 && d.col >= 1)) throw new Error(`diagnostic ${d.code} without a position`);
  if (typeof d.message !== "string" || d.message === "") throw new Error(`diagnostic ${d.code} without a message`);
  if (/\n\s+at .*:\d+:\d+/.test(d.message)) throw new Error(`diagnostic ${d.code} carries a stack trace`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`case hung for ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Writes rendered packages to disk and type-checks them all in one `tsc --strict` run; "" when clean. */
export async function typecheckPackages(dir: string, packages: Array<{ name: string; files: RenderedFile[] }>) {
  for (const pkg of packages) writeFiles(new OutputDir(join(dir, pkg.name)), pkg.files);
  // The generated tsconfig's options, over every package at once (each file is a module: no clashes).
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        rewriteRelativeImportExtensions: true,
        allowJs: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
      },
      include: packages.flatMap((p) => [`${p.name}/src`, `${p.name}/runtime`]),
    }),
  );
  return typecheck(dir);
}
