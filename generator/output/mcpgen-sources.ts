/**
 * One hash over mcpgen itself: what names a run's fingerprint (fingerprint.ts) and every entry of the
 * content cache (content-cache.ts), so another mcpgen never reuses this one's work.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

let sourcesDigest: string | undefined;

/** One hash over mcpgen's generator, runtime, templates and pinned dependencies: another mcpgen, another key. */
export function mcpgenSources(): string {
  if (sourcesDigest) return sourcesDigest;
  const root = new URL("../../", import.meta.url).pathname;
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(join(root, path)));
    }
  };
  for (const dir of ["generator", "runtime", "templates"]) if (existsSync(join(root, dir))) walk(dir);
  for (const file of ["package.json", "package-lock.json"]) {
    if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  }
  sourcesDigest = hash.digest("hex");
  return sourcesDigest;
}
