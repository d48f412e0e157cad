/**
 * The user's own source files in a package: everything under src/ that mcpgen does not generate
 * (handlers, helpers). Render reads their imports so that a runtime module only the user's code uses
 * (a handler importing runtime/protocol/compile-schema.ts, say) stays in the package.
 */

import type { SourceFile } from "../render/runtime-files.ts";
import type { OutputDir } from "./output-dir.ts";
import { readOwnership } from "./ownership.ts";

/** TypeScript sources, as tsc reads them (the package has no allowJs). */
const SOURCE = /\.[cm]?tsx?$/;

export function userSources(dir: OutputDir): SourceFile[] {
  // Files mcpgen wrote before count as its own even when this run no longer renders them: they are
  // about to be removed, and what they imported must not outlive them.
  const generated = new Set(readOwnership(dir).ownership.generated);
  return dir
    .list("src")
    .filter((path) => SOURCE.test(path) && !generated.has(path))
    .flatMap((path) => {
      const content = dir.read(path);
      return content === undefined ? [] : [{ path, content }];
    });
}
