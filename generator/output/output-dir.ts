/**
 * The one owner of the output directory. `--out` is resolved once to an absolute root, so every stage
 * compares and opens the same paths whatever the current directory (a relative `--out` once hid every
 * handler type error). Paths inside are package-relative, forward-slash; `shown` keeps the form the
 * user typed, for messages.
 */
import {
  existsSync,
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

  /** Writes to a temporary file first and renames it into place: an interrupted run leaves no half file. */
  write(path: string, content: string): void {
    const target = this.abs(path);
    makeDirectory(dirname(target));
    const temporary = `${target}.mcpgen-${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  }

  /** Removes a file, then the folders it leaves empty (up to the root): a runtime module dropped from a
   * package takes its folder with it. A folder that still holds anything stays. */
  remove(path: string): void {
    rmSync(this.abs(path), { force: true });
    for (let folder = dirname(path); folder !== "." && folder !== "/"; folder = dirname(folder)) {
      try {
        rmdirSync(this.abs(folder));
      } catch {
        return;
      }
    }
  }

  /** Moves a file unless the target exists: never overwrites. True when it moved. */
  move(from: string, to: string): boolean {
    if (this.exists(to) || !this.exists(from)) return false;
    makeDirectory(dirname(this.abs(to)));
    renameSync(this.abs(from), this.abs(to));
    return true;
  }

  /** The files (not folders) directly in the package root. */
  topLevelFiles(): string[] {
    if (!existsSync(this.root) || !statSync(this.root).isDirectory()) return [];
    return readdirSync(this.root)
      .filter((name) => statSync(this.abs(name)).isFile())
      .sort();
  }

  /** Files below `folder` ("" for the whole package, without .git and .mcpgen), sorted. */
  list(folder = ""): string[] {
    const start = this.abs(folder);
    if (!existsSync(start) || !statSync(start).isDirectory()) return [];
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (dir === this.root && NOT_CONTENT.has(name)) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else found.push(relative(this.root, path).split(sep).join("/"));
      }
    };
    walk(start);
    return found.sort();
  }
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
