/**
 * The write stage, in two steps: plan (what would change, and which existing files mcpgen did not
 * write and would overwrite) and apply. Generated files are rewritten only when their bytes differ;
 * handler scaffolds are only ever created (or moved from a renamed entry's file, never over one);
 * only files mcpgen recorded as its own are ever removed. `--check` plans and applies nothing.
 */

import { sha256 } from "../hash.ts";
import type { RenderedFile } from "../render/index.ts";
import type { OutputDir } from "./output-dir.ts";
import { OWNERSHIP_FILE, type Ownership, readOwnership, writeOwnership } from "./ownership.ts";

export type WriteOutcome = {
  /** Generated files whose content changes, or that are new. */
  changed: string[];
  /** The part of `changed` that is not on disk at all (deleted, or never written). */
  missing: string[];
  /** Handler scaffolds created because they did not exist. */
  created: string[];
  /** Handler files moved to a renamed entry's file name. */
  renamed: Array<{ from: string; to: string }>;
  /** Files mcpgen wrote earlier and no longer produces. */
  removed: string[];
  /** Handler files scaffolded for an entry the spec no longer has (kept; reported). */
  obsolete: string[];
  unchanged: string[];
};

export type WritePlan = {
  outcome: WriteOutcome;
  /** Existing files mcpgen did not write that this run would overwrite (or, in a folder that is not a
   * package yet, every file there): the run is refused unless --force. */
  conflicts: string[];
  ownership: Ownership;
  /** Entries of the ownership record that are not plain paths inside the package: never trusted. */
  refused: string[];
  /** Paths this run would write or remove through a symbolic link that leads out of the package. */
  linkedOut: string[];
};

/** `inputs`: the spec and config file, package-relative: inside --out they are the user's input, no conflict. */
export function planWrite(dir: OutputDir, files: RenderedFile[], force: boolean, inputs: string[] = []): WritePlan {
  const { ownership: before, source, refused } = readOwnership(dir);
  const owned = new Set(before.generated);
  const scaffolded = { ...before.scaffolded };
  const outcome: WriteOutcome = {
    changed: [],
    missing: [],
    created: [],
    renamed: [],
    removed: [],
    obsolete: [],
    unchanged: [],
  };
  const conflicts: string[] = [];
  // Files the user already has under a name mcpgen would write (yieldsToUser): theirs, left as they are.
  const yielded = new Set<string>();
  for (const file of files) {
    if (file.owner === "user") {
      const handler = file.describes ?? "an entry";
      if (dir.exists(file.path)) scaffolded[file.path] = handler;
      else if (file.formerPath && dir.exists(file.formerPath)) {
        outcome.renamed.push({ from: file.formerPath, to: file.path });
        delete scaffolded[file.formerPath];
        scaffolded[file.path] = handler;
      } else {
        outcome.created.push(file.path);
        scaffolded[file.path] = handler;
      }
      continue;
    }
    const same = sameAsOnDisk(dir, file);
    if (file.yieldsToUser && same === false && !owned.has(file.path)) {
      yielded.add(file.path);
      continue;
    }
    if (same === true) outcome.unchanged.push(file.path);
    else {
      if (same === undefined) outcome.missing.push(file.path);
      else if (!owned.has(file.path)) conflicts.push(file.path);
      outcome.changed.push(file.path);
    }
  }

  const produced = new Set(files.map((f) => f.path));
  if (source === "none") {
    // Not an mcpgen package: whatever is there is the user's, unless it is exactly what mcpgen writes.
    const same = new Set([...outcome.unchanged, ...inputs, ...yielded]);
    conflicts.splice(0, conflicts.length, ...dir.list().filter((path) => !same.has(path) && !produced.has(path)));
    conflicts.push(...outcome.changed.filter((path) => dir.exists(path)));
    conflicts.sort();
  }
  for (const path of owned) if (!produced.has(path) && dir.exists(path)) outcome.removed.push(path);
  outcome.removed.sort();
  for (const path of Object.keys(scaffolded)) {
    if (produced.has(path)) continue;
    if (dir.exists(path)) outcome.obsolete.push(path);
    else delete scaffolded[path];
  }
  outcome.obsolete.sort();
  const ownership = {
    generated: files.filter((f) => f.owner === "mcpgen" && !yielded.has(f.path)).map((f) => f.path),
    scaffolded,
  };
  const linkedOut = touched(outcome).filter((path) => dir.leadsOutside(path));
  return { outcome, conflicts: force ? [] : conflicts, ownership, refused, linkedOut };
}

/** Whether the file on disk is the one rendered (undefined: none on disk); a staged file by its digest,
 * so its text is not read back into memory. */
function sameAsOnDisk(dir: OutputDir, file: RenderedFile): boolean | undefined {
  if (file.staged === undefined) {
    const current = dir.read(file.path);
    return current === undefined ? undefined : current === file.content;
  }
  const current = dir.readBytes(file.path);
  return current === undefined ? undefined : sha256(current) === file.staged.digest;
}

/** Every path applyWrite would write, move or remove: none may lead out of the package (--force or not). */
function touched(outcome: WriteOutcome): string[] {
  const moved = outcome.renamed.flatMap(({ from, to }) => [from, to]);
  const paths = [...outcome.changed, ...outcome.created, ...moved, ...outcome.removed, OWNERSHIP_FILE];
  return [...new Set(paths)].sort();
}

/** Carries out a plan: moves, writes, removals, then the new ownership record. */
export function applyWrite(dir: OutputDir, files: RenderedFile[], plan: WritePlan): void {
  const { outcome } = plan;
  for (const { from, to } of outcome.renamed) dir.move(from, to);
  const writing = new Set([...outcome.changed, ...outcome.created]);
  for (const file of files) {
    if (!writing.has(file.path)) continue;
    if (file.staged === undefined) dir.write(file.path, file.content);
    else {
      dir.moveIn(file.path, file.staged.file);
      // Where its text is now: `content` still reads it after the move.
      file.staged.file = dir.abs(file.path);
    }
  }
  for (const path of outcome.removed) dir.remove(path);
  writeOwnership(dir, plan.ownership);
}

/** Writes a rendered package whatever the folder holds (tests that type-check many packages at once). */
export function writeFiles(dir: OutputDir, files: RenderedFile[]): WriteOutcome {
  const plan = planWrite(dir, files, true);
  applyWrite(dir, files, plan);
  return plan.outcome;
}
