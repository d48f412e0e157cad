/** What `--watch` needs besides the watching itself: the local files a spec `$ref`s, and a free port. */
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { DEFAULT_MAX_BYTES } from "../source/limits.ts";
import { readRegularFile } from "../source/safe-read.ts";
import { BUILT_IN_VIEWS } from "../views/tool-view.ts";

/** `$ref: "other.yaml#/x"` in YAML or JSON, quoted or not; the capture is the part before '#'. */
const REF = /["']?\$ref["']?\s*:\s*["']?([^"'#\s,}\]]*)/g;
/** A view's own page (`ui: ./orders.html`, `x-mcp-ui`): a file too, unless the value names a built-in view. */
const UI_PAGE = /(?:^|[\s{,])["']?(?:x-mcp-)?ui["']?\s*:\s*["']?([^"'#\s,}\]]*)/gm;
// Read as text, `ui: false` is a word too.
const NOT_PAGES = new Set([...BUILT_IN_VIEWS, "false", "true"]);
/** A reference with a scheme (https:, urn:, ...) is not a local file. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Enough for any real multi-file spec, and a bound on a reference loop's work. */
const MAX_FILES = 500;

/** Every local file reachable through `$ref`s (and view pages) from `file` (not `file` itself), following references in them too. */
export function localRefs(file: string): string[] {
  const found = new Set<string>([resolve(file)]);
  const queue = [resolve(file)];
  while (queue.length > 0 && found.size < MAX_FILES) {
    const current = queue.shift()!;
    // Only a regular file of a spec's size is read: a $ref to a FIFO or /dev/zero must not hang the watcher.
    // One that is missing or unreadable is still watched (it may appear); the generate run reports it.
    const read = readRegularFile(current, DEFAULT_MAX_BYTES);
    if (!read.ok) continue;
    const text = read.bytes.toString("utf8");
    // A view's page is watched, not read: it is HTML, with no $ref to follow (and views/view-page-file.ts
    // decides what may be read).
    for (const [, page] of text.matchAll(UI_PAGE))
      if (page !== "" && !NOT_PAGES.has(page) && !SCHEME.test(page)) found.add(resolve(dirname(current), page));
    for (const [, target] of text.matchAll(REF)) {
      if (target === "" || SCHEME.test(target)) continue;
      let path: string;
      try {
        path = resolve(dirname(current), decodeURIComponent(target));
      } catch {
        continue; // malformed %-escape: the generate run reports the reference
      }
      if (found.has(path)) continue;
      found.add(path);
      queue.push(path);
    }
  }
  found.delete(resolve(file));
  return [...found];
}

/** A port free on 127.0.0.1 right now, so `--port 0` gives one stable port across server restarts. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}
