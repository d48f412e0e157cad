/** The cache tests' environment: a fresh cache folder per test, the variables put back after it. */
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { scratchDir } from "./support.ts";

/**
 * Points the cache at a fresh folder for each test (`prefix` names it) and puts MCPGEN_CACHE_DIR and
 * MCPGEN_CACHE back afterwards; returns the current folder.
 */
export function freshCacheEachTest(prefix: string): () => string {
  const saved = { dir: process.env.MCPGEN_CACHE_DIR, off: process.env.MCPGEN_CACHE };
  let cache = "";
  beforeEach(() => {
    cache = join(scratchDir(prefix), `cache-${Math.random().toString(36).slice(2)}`);
    process.env.MCPGEN_CACHE_DIR = cache;
    delete process.env.MCPGEN_CACHE;
  });
  afterEach(() => {
    for (const [key, value] of [
      ["MCPGEN_CACHE_DIR", saved.dir],
      ["MCPGEN_CACHE", saved.off],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  return () => cache;
}
