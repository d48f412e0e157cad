/** Where each package file lands in dist/ (output/compile-dist.ts), without loading TypeScript. */
import { DIST_DATA, DIST_ENTRY } from "../render/package-files.ts";
import type { OutputDir } from "./output-dir.ts";

export const SOURCE = /\.ts$/;
const DECLARATION = /\.d\.ts$/;

/** The dist/ file of a package source file (`src/app.ts` → `dist/src/app.js`), or undefined for none. */
export function distPathOf(path: string): string | undefined {
  if (!/^(src|runtime)\//.test(path)) return undefined;
  if (SOURCE.test(path)) return DECLARATION.test(path) ? undefined : `dist/${path.replace(SOURCE, ".js")}`;
  return DIST_DATA.some((data) => path === `src/${data}` || path.startsWith(`src/${data}/`))
    ? `dist/${path}`
    : undefined;
}

/**
 * Data files an earlier mcpgen copied into dist/src/ under a name it no longer writes: src/manifest.json,
 * now src/catalog.json (issue 28: "manifest" is only the MCPB manifest). distPathOf no longer knows them.
 */
const FORMER_DIST_DATA = ["manifest.json"];

/** The dist/ file that goes with a package file generate removed: its twin, under a former name too. */
export function removedTwinOf(path: string): string | undefined {
  return distPathOf(path) ?? (FORMER_DIST_DATA.some((data) => path === `src/${data}`) ? `dist/${path}` : undefined);
}

/** True when dist/ has the entry and a file for every source: a run that changed nothing can skip writeDist. */
export function distIsComplete(dir: OutputDir, sources: string[]): boolean {
  if (!dir.exists(DIST_ENTRY)) return false;
  return sources.every((path) => {
    const twin = distPathOf(path);
    return twin === undefined || dir.exists(twin);
  });
}
