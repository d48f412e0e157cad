/**
 * Type-checks the user's handler files against the types generated from the spec, so a spec change
 * that breaks a handler is reported at once (file:line:col), not at the user's next build. `generate`
 * checks the package it just wrote; `--check` checks the handlers on disk against the files it would
 * write, held in memory (`pending`), so CI catches a broken handler without writing anything.
 */
import { dirname, join, relative } from "node:path";
import { Project, ts } from "ts-morph";
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { RenderedFile } from "../render/index.ts";
import type { OutputDir } from "./output-dir.ts";
import { PACKAGE_MOVES, RUNTIME_MOVES } from "./runtime-moves.ts";

export function checkHandlers(
  dir: OutputDir,
  handlerFiles: string[],
  bag: DiagnosticBag,
  pending: RenderedFile[] = [],
  typeRenames: ReadonlyMap<string, string> = new Map(),
): void {
  const present = handlerFiles.filter((file) => dir.exists(file));
  if (present.length === 0 || !dir.exists("tsconfig.json")) return;
  const project = new Project({ tsConfigFilePath: dir.abs("tsconfig.json") });
  for (const file of pending) {
    if (/\.ts$/.test(file.path)) project.createSourceFile(dir.abs(file.path), file.content, { overwrite: true });
  }
  // Only the handlers' own diagnostics, each at its path as the user typed --out.
  for (const file of present) {
    const source = project.getSourceFile(dir.abs(file)) ?? project.addSourceFileAtPath(dir.abs(file));
    for (const diagnostic of source.getPreEmitDiagnostics()) {
      if (diagnostic.getSourceFile()?.getFilePath() !== source.getFilePath()) continue;
      const { line, column } = source.getLineAndColumnAtPos(diagnostic.getStart() ?? 0);
      const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, " ");
      const hint = movedRuntimeImport(dir, file, message) ?? renamedType(message, typeRenames);
      bag.reporter(dir.display(file), () => ({ line, col: column }))(
        "HANDLER_TYPE_ERROR",
        "",
        `TS${diagnostic.getCode()}: ${message}`,
        hint ? { hint } : {},
      );
    }
  }
}

/**
 * The fix for a handler that imports a runtime file from before runtime/ became folders by role, or a
 * package file renamed since (runtime-moves.ts).
 */
export function movedRuntimeImport(dir: OutputDir, file: string, message: string): string | undefined {
  const specifier = /^Cannot find module '(\.[^']*)'/.exec(message)?.[1];
  if (specifier === undefined) return undefined;
  const from = dirname(dir.abs(file));
  const target = dir.relative(join(from, specifier));
  if (Object.hasOwn(PACKAGE_MOVES, target)) {
    const moved = PACKAGE_MOVES[target];
    const now = relative(from, dir.abs(moved.path)).split("\\").join("/");
    const specifierNow = now.startsWith(".") ? now : `./${now}`;
    return `${target} is ${moved.path} now: import { ${moved.exports} } from '${specifierNow}' (what ${target} exported as \`${moved.formerly}\`)`;
  }
  const name = target.startsWith("runtime/") ? target.slice("runtime/".length) : "";
  if (!Object.hasOwn(RUNTIME_MOVES, name)) return undefined;
  const runtime = relative(from, dir.abs("runtime")).split("\\").join("/");
  return (
    `runtime/${name} moved to runtime/${RUNTIME_MOVES[name]}: import from '${runtime}/handler-api.ts', ` +
    `which exports everything a handler uses (or from '${runtime}/${RUNTIME_MOVES[name]}')`
  );
}

/** The fix for a handler of a renamed tool that still imports the types of the tool's former name. */
function renamedType(message: string, typeRenames: ReadonlyMap<string, string>): string | undefined {
  const missing = /has no exported member (?:named )?'([^']+)'/.exec(message)?.[1];
  const now = missing === undefined ? undefined : typeRenames.get(missing);
  if (now === undefined) return undefined;
  return `the tool was renamed, and its types with it: change ${missing} to ${now} (in the import and where it is used)`;
}
