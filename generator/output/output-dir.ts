/**
 * The one owner of the output directory. `--out` is resolved once to an absolute root, so every stage
 * compares and opens the same paths whatever the current directory (a relative `--out` once hid every
 * handler type error). Paths inside are package-relative, forward-slash; `shown` keeps the form the
 * user typed, for messages.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isWithin, realOf } from "./real-path.ts";

/** Folders never listed as package content: version control, and mcpgen's own records. */
const NOT_CONTENT = new Set([".git", ".mcpgen"]);

export class OutputDir {
  readonly root: string;
  readonly shown: string;

  constructor(given: string) {
    this.root = resolve(given);
    this.shown = given;
  }

  abs(path: string): string {
    return join(this.root, path);
  }

  /** Any path (as given on the command line) as a package-relative one; outside the package it starts with "..". */
  relative(path: string): string {
    return relative(this.root, resolve(path)).split(sep).join("/");
  }

  /** A package file as the user would type it from here: `<--out>/<path>`. */
  display(path: string): string {
    return join(this.shown, path);
  }

  read(path: string): string | undefined {
    try {
      return readFileSync(this.abs(path), "utf8");
    } catch {
      return undefined;
    }
  }

  readBytes(path: string): Buffer | undefined {
    try {
      return readFileSync(this.abs(path));
    } catch {
      return undefined;
    }
  }

  exists(path: string): boolean {
    return existsSync(this.abs(path));
  }

  /**
   * True when writing or removing `path` would touch something outside the package: a path that is not
   * plain (`../x`, `/x`: a hostile `.mcpgen/files.json`), or a symbolic link on the way out of it
   * (`deploy -> /elsewhere`, committed in a cloned repository). Judged by real path, so a link that stays
   * inside is fine. The file itself may be a link: rename and unlink replace or remove the link, never
   * what it points to.
   */
  leadsOutside(path: string): boolean {
    if (!isPlainPath(path)) return true;
    return !isWithin(realOf(dirname(this.abs(path))), realOf(this.root));
  }

  /** Every writer and remover asks first, so no stage can be led out of the package. */
  private guard(path: string): void {
    if (this.leadsOutside(path)) throw new Error(`'${path}' leads outside '${this.shown}'`);
  }

  /** Writes to a temporary file first and renames it into place: an interrupted run leaves no half file. */
  write(path: string, content: string): void {
    this.guard(path);
    const target = this.abs(path);
    makeDirectory(dirname(target));
    const temporary = `${target}.mcpgen-${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  }

  /**
   * Puts the file at `from` (a staged file, output/staging.ts: outside the package) in place as `path`.
   * A rename; where `from` is on another file system, a copy under a temporary name renamed into place.
   */
  moveIn(path: string, from: string): void {
    this.guard(path);
    const target = this.abs(path);
    makeDirectory(dirname(target));
    try {
      renameSync(from, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      const temporary = `${target}.mcpgen-${process.pid}.tmp`;
      copyFileSync(from, temporary);
      renameSync(temporary, target);
    }
  }

  /** Removes a file, then the folders it leaves empty (up to the root): a runtime module dropped from a
   * package takes its folder with it. A folder that still holds anything stays. */
  remove(path: string): void {
    this.guard(path);
    rmSync(this.abs(path), { force: true });
    for (let folder = dirname(path); folder !== "." && folder !== "/"; folder = dirname(folder)) {
      try {
        rmdirSync(this.abs(folder));
      } catch {
        return;
      }
    }
  }

  /** chmod, never through a symbolic link (chmod follows one: a linked `dist/server.js` could lead anywhere). */
  makeExecutable(path: string): void {
    this.guard(path);
    if (lstatSync(this.abs(path)).isSymbolicLink()) throw new Error(`'${path}' is a symbolic link`);
    chmodSync(this.abs(path), 0o755);
  }

  /** Moves a file unless the target exists: never overwrites. True when it moved. */
  move(from: string, to: string): boolean {
    this.guard(from);
    this.guard(to);
    if (this.exists(to) || !this.exists(from)) return false;
    makeDirectory(dirname(this.abs(to)));
    renameSync(this.abs(from), this.abs(to));
    return true;
  }

  /** The files (not folders) directly in the package root. */
  topLevelFiles(): string[] {
    if (!existsSync(this.root) || !statSync(this.root).isDirectory()) return [];
    return readdirSync(this.root)
      .filter((name) => statSync(this.abs(name), { throwIfNoEntry: false })?.isFile() === true)
      .sort();
  }

  /** Files below `folder` ("" for the whole package, without .git and .mcpgen), sorted. */
  list(folder = ""): string[] {
    const start = this.abs(folder);
    if (!existsSync(start) || !statSync(start).isDirectory()) return [];
    const found: string[] = [];
    const walk = (dir: string) => {
      // A linked folder is listed as an entry, never walked: it may lead out of the package, or loop.
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (dir === this.root && NOT_CONTENT.has(entry.name)) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else found.push(relative(this.root, path).split(sep).join("/"));
      }
    };
    walk(start);
    return found.sort();
  }
}

/** A package path as mcpgen writes them: relative, `/`-separated, no empty, `.` or `..` segment. */
export function isPlainPath(path: string): boolean {
  if (path === "" || path.includes("\\") || path.includes("\0") || /^[A-Za-z]:/.test(path)) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/**
 * `mkdir -p` one level at a time. Node's recursive mkdirSync loops forever below /proc (it retries on
 * the ENOENT a pseudo file system answers); creating each missing level alone fails at once instead.
 */
export function makeDirectory(path: string): void {
  const missing: string[] = [];
  let current = resolve(path);
  while (!existsSync(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of missing) mkdirSync(dir);
}
