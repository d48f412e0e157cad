/** Containment judged by real path: symbolic links are followed to where they really lead. */

import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/** True when `path` is `root` or below it (both absolute). */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** The real path of `path`, for a path not created yet that of its nearest existing ancestor plus the rest. */
export function realOf(path: string): string {
  const rest: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync(current), ...rest);
    } catch {
      if (dirname(current) === current) return path;
      rest.unshift(basename(current));
    }
  }
}

/** True when `path` really lies inside `root`, whichever links lead there. */
export function isReallyWithin(path: string, root: string): boolean {
  return isWithin(path, root) && isWithin(realOf(path), realOf(root));
}
