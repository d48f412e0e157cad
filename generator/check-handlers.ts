/**
 * After regeneration, type-checks the user's handler files against the freshly generated types, so a
 * spec change that breaks a handler is reported at once (file:line:col), not at the user's next build.
 */
import { join } from "node:path";
import { Project, ts } from "ts-morph";
import type { DiagnosticBag } from "./diagnostics.ts";

export function checkHandlers(outDir: string, handlerFiles: string[], bag: DiagnosticBag): void {
  if (handlerFiles.length === 0) return;
  const project = new Project({ tsConfigFilePath: join(outDir, "tsconfig.json") });
  const wanted = new Set(handlerFiles.map((file) => join(outDir, file)));
  for (const diagnostic of project.getPreEmitDiagnostics()) {
    const source = diagnostic.getSourceFile();
    const path = source?.getFilePath();
    if (!source || !path || !wanted.has(path)) continue;
    const start = diagnostic.getStart() ?? 0;
    const { line, column } = source.getLineAndColumnAtPos(start);
    const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, " ");
    bag.reporter(path, () => ({ line, col: column }))(
      "HANDLER_TYPE_ERROR",
      "",
      `TS${diagnostic.getCode()}: ${message}`,
    );
  }
}
