/** tsc --strict over a few files, for tests that prove generated text is real TypeScript. */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./support.ts";

/**
 * Type-checks `files` (names relative to `dir`) with no @types and no DOM; the diagnostics as
 * `file(line,col): error TS...` lines, the file named as given.
 */
export function typeCheck(dir: string, files: string[]): string[] {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const compilerOptions = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2022"], types: [], pretty: false };
  const config = join(dir, "tsconfig.json");
  writeFileSync(config, JSON.stringify({ compilerOptions, files }));
  try {
    execFileSync(process.execPath, [tsc, "-p", config], { encoding: "utf8", stdio: "pipe", cwd: dir });
    return [];
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    const errors = `${stdout ?? ""}\n${stderr ?? ""}`.split("\n").filter((line) => line.includes("error TS"));
    // tsc failed without a diagnostic (it could not start, say): that is no proof of anything.
    if (errors.length === 0) throw error;
    return errors;
  }
}

/** The diagnostics on a line of a file. */
export function errorsOn(errors: string[], file: string, line: number): string[] {
  return errors.filter((e) => e.startsWith(`${file}(${line},`));
}

/** Every diagnostic but those on `lines` of `file`: the unexpected ones. */
export function errorsOutside(errors: string[], file: string, lines: ReadonlySet<number>): string[] {
  return errors.filter((e) => {
    const match = /^(.*)\((\d+),/.exec(e);
    return match?.[1] !== file || !lines.has(Number(match[2]));
  });
}
