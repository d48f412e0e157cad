/**
 * `npm run regen`: regenerates generated/<name>/ from every spec in specs/ (the committed golden
 * outputs). Handlers under generated/<name>/src/handlers/ are user-owned and survive, as in any package.
 */
import { readdirSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { formatText } from "../generator/diagnostics/diagnostic.ts";
import { exitCodeOf, generate } from "../generator/index.ts";

export const SPECS_DIR = new URL("../specs/", import.meta.url).pathname;
export const GENERATED_DIR = new URL("../generated/", import.meta.url).pathname;

/** Every example spec with the directory its package lives in. */
export function examples(): Array<{ spec: string; out: string }> {
  return readdirSync(SPECS_DIR)
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .sort()
    .map((name) => ({ spec: join(SPECS_DIR, name), out: join(GENERATED_DIR, basename(name, extname(name))) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let failed = false;
  for (const { spec, out } of examples()) {
    const result = await generate(spec, out);
    if (result.diagnostics.length > 0) process.stdout.write(`${formatText(result.diagnostics)}\n`);
    failed ||= exitCodeOf(result.diagnostics) !== 0 || !result.outcome;
    const changed = result.outcome?.changed.length ?? 0;
    process.stderr.write(`${basename(out)}: ${changed} file${changed === 1 ? "" : "s"} written\n`);
  }
  process.exit(failed ? 1 : 0);
}
