/**
 * Handlers import the runtime through one module, runtime/handler-api.ts: the rest of the runtime is
 * mcpgen's to move and split (a package carries only the features it enabled), so a handler that reaches
 * into it breaks on a later generate. This warns where one does, at the import, before it breaks.
 */
import { posix } from "node:path";
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { RenderedFile } from "../render/index.ts";
import { importSpecifiers } from "../render/runtime-files.ts";
import type { OutputDir } from "./output-dir.ts";

const HANDLER_API = "runtime/handler-api.ts";

/** HANDLER_RUNTIME_IMPORT for each import of a runtime module other than handler-api.ts in the user's files. */
export function checkHandlerImports(dir: OutputDir, files: RenderedFile[], bag: DiagnosticBag): void {
  for (const file of files) {
    if (file.owner !== "user" || !file.path.endsWith(".ts")) continue;
    const content = dir.read(file.path) ?? file.content;
    for (const specifier of importSpecifiers(content)) {
      if (!specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
      if (!target.startsWith("runtime/") || target === HANDLER_API) continue;
      const at = content.indexOf(`"${specifier}"`);
      const before = content.slice(0, Math.max(at, 0));
      const line = before.split("\n").length;
      const col = at < 0 ? 1 : at - before.lastIndexOf("\n");
      const api = posix.relative(posix.dirname(file.path), HANDLER_API);
      bag.reporter(dir.display(file.path), () => ({ line, col }))(
        "HANDLER_RUNTIME_IMPORT",
        "",
        `imports '${specifier}', a runtime module handlers should not depend on (it may move or be left out of the package)`,
        {
          hint: `import what the handler needs from '${api.startsWith(".") ? api : `./${api}`}', which exports the context, result types and errors`,
        },
      );
    }
  }
}
