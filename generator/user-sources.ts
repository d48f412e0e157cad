/**
 * The user's own source files in a package: everything under src/ that mcpgen does not generate
 * (handlers, helpers). Render reads their imports so that a runtime module only the user's code uses
 * (a handler importing runtime/compile-schema.ts, say) stays in the package.
 */
import type { OutputDir } from "./output-dir.ts";
import { readOwnership } from "./ownership.ts";
import type { SourceFile } from "./render/runtime-files.ts";

const SOURCE = /\.[cm]?[jt]sx?$/;

export function userSources(dir: OutputDir): SourceFile[] {
  // Files mcpgen wrote before count as its own even when this run no longer renders them: they are
  // about to be removed, and what they imported must not outlive them.
  const generated = new Set(readOwnership(dir).ownership.generated);
  // The validator chunks (megabytes for a large API) are always mcpgen's and import no runtime.
  return dir
    .list("src")
    .filter((path) => SOURCE.test(path) && !generated.has(path) && !path.startsWith("src/validators/"))
    .flatMap((path) => {
      const content = dir.read(path);
      return content === undefined ? [] : [{ path, content }];
    });
}
