/**
 * Generated code passes `biome check` with the repository's own biome.json and zero diagnostics: the
 * committed golden packages, and what mcpgen makes of every example spec today, handler scaffolds of
 * every kind included (the goldens hold hand-written handlers instead). Biome runs as its CLI.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { examples } from "../../scripts/regen.ts";
import { ROOT, scratchDir } from "./support.ts";

const BIOME = join(ROOT, "node_modules/@biomejs/biome/bin/biome");

/** Biome's report on `dirs`, or "" when it has nothing to say. */
function biomeCheck(dirs: string[], ...flags: string[]): string {
  const run = spawnSync(
    process.execPath,
    [BIOME, "check", "--error-on-warnings", "--max-diagnostics=none", "--colors=off", ...flags, ...dirs],
    { cwd: ROOT, encoding: "utf8" },
  );
  const output = `${run.stdout}${run.stderr}`;
  // Zero files checked would pass silently: the configuration must not exclude what we lint.
  expect(output, output).toMatch(/Checked [1-9]\d* files?/);
  return run.status === 0 ? "" : output;
}

describe("generated code passes biome check", () => {
  it("the golden packages (generated/*/src)", () => {
    const dirs = examples().map(({ out }) => relative(ROOT, join(out, "src")));
    expect(biomeCheck(dirs)).toBe("");
  });

  it("every example spec generated afresh, handler scaffolds included", async () => {
    const dir = scratchDir("lint");
    const outs = examples().map(({ spec, out }) => ({ spec, out: join(dir, relative(join(ROOT, "generated"), out)) }));
    for (const { spec, out } of outs) {
      const result = await generate(spec, out);
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    }
    // The TypeScript files (not ajv's .cjs chunks, which biome.json leaves out of generated/ too). The
    // scratch directory is git-ignored: Biome is told not to skip it for that.
    const files = outs.flatMap(({ out }) =>
      readdirSync(join(out, "src"), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts"))
        .map((file) => join(out, "src", file)),
    );
    expect(biomeCheck(files, "--vcs-use-ignore-file=false")).toBe("");
  }, 180_000);
});
