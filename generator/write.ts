/**
 * The write stage. Generated files are rewritten only when their bytes differ; user-owned handler files
 * are only ever created; runtime files that no longer exist are removed. In check mode nothing is
 * touched and the same outcome says what would change. Writes go to a temporary file first and are
 * renamed into place, so an interrupted run never leaves half a file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { RenderedFile } from "./render/index.ts";

export type WriteOutcome = {
  /** Generated files whose content changes (or that are new). */
  changed: string[];
  /** Handler scaffolds created because they did not exist. */
  created: string[];
  /** Generated files that are no longer produced. */
  removed: string[];
  /** Handler files no entry of the spec uses any more (kept; reported). */
  obsolete: string[];
  unchanged: number;
};

/** Folders only mcpgen writes into: a file there that is no longer produced is removed. */
export const OWNED_FOLDERS = ["runtime", "src/validators"];
/** Generated files earlier versions of mcpgen wrote and this one does not (validators are chunked now). */
const FORMER_FILES = ["src/validators.js", "src/validators.d.ts"];

export function writeFiles(outDir: string, files: RenderedFile[], check: boolean): WriteOutcome {
  const outcome: WriteOutcome = { changed: [], created: [], removed: [], obsolete: [], unchanged: 0 };
  for (const file of files) {
    const target = join(outDir, file.path);
    const current = readIfFile(target);
    if (file.owner === "user") {
      if (current !== undefined) continue;
      outcome.created.push(file.path);
    } else if (current === file.content) {
      outcome.unchanged++;
      continue;
    } else outcome.changed.push(file.path);
    if (!check) writeAtomically(target, file.content);
  }

  const produced = new Set(files.map((f) => f.path));
  const owned = [...OWNED_FOLDERS.flatMap((folder) => listFiles(outDir, folder)), ...FORMER_FILES];
  for (const path of owned) {
    if (produced.has(path) || !existsSync(join(outDir, path))) continue;
    outcome.removed.push(path);
    if (!check) rmSync(join(outDir, path));
  }
  outcome.obsolete = listFiles(outDir, "src/handlers").filter((path) => !produced.has(path));
  return outcome;
}

function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export function writeAtomically(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.mcpgen-${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}

/** Files below `outDir/folder`, as forward-slash paths relative to outDir, sorted. */
export function listFiles(outDir: string, folder: string): string[] {
  const root = join(outDir, folder);
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(outDir, path).split(sep).join("/"));
    }
  };
  walk(root);
  return found.sort();
}
