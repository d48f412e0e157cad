/**
 * Reading the user's own view page (`ui: ./orders.html`, `x-mcp-ui`). A spec or an OpenAPI document may come from
 * anyone, and the page is copied into the package and served to every client, so it is read as a `$ref` is
 * (SECURITY.md): only a regular file (safe-read.ts: no FIFO, device or /proc pseudo-file) inside the folder of
 * the file that names it, judged by its real path (no absolute path, `../` chain or symbolic link out), at most
 * 1 MB, and UTF-8 text.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { readRegularFile } from "../source/safe-read.ts";

const MAX_PAGE_BYTES = 1024 * 1024;

/** The page's text, or why it cannot be served (a sentence that follows "the page '<path>' of tool 'x' "). */
export type PageRead = { ok: true; html: string } | { ok: false; problem: string };

const inside = (folder: string, path: string) => {
  const rest = relative(folder, path);
  return rest !== "" && !rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest);
};

export function readViewPage(path: string, namedIn: string): PageRead {
  const folder = dirname(resolve(namedIn));
  const file = resolve(folder, path);
  const outside = { ok: false as const, problem: `is outside ${folder}, the folder of the file that names it` };
  if (!inside(folder, file)) return outside;
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch {
    return { ok: false, problem: "does not exist" };
  }
  if (!inside(realpathSync.native(folder), real)) return outside;
  const read = readRegularFile(real, MAX_PAGE_BYTES);
  if (!read.ok) {
    if (read.reason === "missing") return { ok: false, problem: "does not exist" };
    if (read.reason === "directory") return { ok: false, problem: "is not a file" };
    if (read.reason === "not-regular") return { ok: false, problem: `is ${read.detail}, not a regular file` };
    if (read.reason === "too-large")
      return { ok: false, problem: `is ${Math.round((read.size ?? 0) / 1024)} KB, over the 1 MB a page may be` };
    const detail = read.detail === "EACCES" ? "permission denied" : read.detail;
    return { ok: false, problem: `cannot be read (${detail})` };
  }
  try {
    return { ok: true, html: new TextDecoder("utf-8", { fatal: true }).decode(read.bytes) };
  } catch {
    return { ok: false, problem: "is not UTF-8 text" };
  }
}
