/**
 * Large generated files written as they are made (issue 32): Microsoft Graph's validator code, catalog,
 * README, types and search index are 210 MB of text, which used to stay in memory until the write. A
 * generated file of STAGE_MIN_CHARS or more goes to a staging folder beside `--out` (never inside it:
 * nothing may land in `--out` before the write's conflict check passes) and only its digest stays in
 * memory; the write then moves it into place. The folder goes when the run ends, whatever happened.
 *
 * Staging only saves memory: where the folder cannot be made (no parent folder yet, a read-only one),
 * files stay in memory as before.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { sha256 } from "../hash.ts";

/** Smaller files stay in memory: the saving is in the large ones, and each staged file costs a few syscalls. */
export const STAGE_MIN_CHARS = 16 * 1024;

/** Where a staged file's content is now (the staging folder, or the package once moved there), and its SHA-256. */
export type StagedContent = { file: string; digest: string };

export class Staging {
  private folder: string | undefined;
  private failed = false;
  private count = 0;

  /** `outRoot`: the package folder, absolute. */
  constructor(private readonly outRoot: string) {}

  /** Writes `content` to the staging folder: where it is, and its digest; undefined to keep it in memory. */
  put(content: string): StagedContent | undefined {
    if (content.length < STAGE_MIN_CHARS) return undefined;
    const folder = this.open();
    if (folder === undefined) return undefined;
    // Encoded once: the digest and the file are of the same bytes (sha256 of the string hashes these too).
    const bytes = Buffer.from(content, "utf8");
    const file = join(folder, `${this.count++}`);
    try {
      writeFileSync(file, bytes);
    } catch {
      return undefined;
    }
    return { file, digest: sha256(bytes) };
  }

  /** Removes the staging folder and whatever is still in it (a folder it cannot remove, the next run will). */
  dispose(): void {
    try {
      if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    } catch {}
    this.folder = undefined;
  }

  private open(): string | undefined {
    if (this.folder !== undefined || this.failed) return this.folder;
    const prefix = stagingPrefix(this.outRoot);
    try {
      removeAbandoned(prefix);
      // mkdtemp: a new folder of a name no one else holds, readable by this user alone.
      this.folder = mkdtempSync(`${prefix}${process.pid}-`);
    } catch {
      this.failed = true;
    }
    return this.folder;
  }
}

/** `<parent>/.<name>.mcpgen-staging-`: beside the package, on its file system (so a move is a rename). */
function stagingPrefix(outRoot: string): string {
  return join(dirname(outRoot), `.${basename(outRoot)}.mcpgen-staging-`);
}

/** Staging folders of runs that were killed before they could remove theirs (their process is gone). */
function removeAbandoned(prefix: string): void {
  const name = basename(prefix);
  for (const entry of readdirSync(dirname(prefix))) {
    const pid = entry.startsWith(name) ? Number(/^(\d+)-/.exec(entry.slice(name.length))?.[1]) : Number.NaN;
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    const path = join(dirname(prefix), entry);
    try {
      // A folder of that name only, never through a link.
      if (lstatSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove: this run stages in a folder of its own all the same.
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
