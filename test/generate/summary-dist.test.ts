/**
 * The summary line counts dist/ (issue 33 item 12): a run that compiled dist/ says so, even when no
 * source file changed (dist/ deleted), and a run that changed nothing says nothing about it.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT, scratchDir } from "./support.ts";

const generate = (out: string, ...extra: string[]) =>
  spawnSync(
    process.execPath,
    [join(ROOT, "bin/mcpgen.js"), "generate", "specs/petstore.yaml", "--out", out, ...extra],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
const summary = (stderr: string) => stderr.split("\n")[0];

it("says how many files of dist/ a run compiled", () => {
  const out = join(scratchDir("summary-dist"), "pkg");
  expect(summary(generate(out).stderr)).toMatch(/^.*pkg: \d+ written, 0 unchanged, 0 removed; dist\/: \d+ compiled$/);
  expect(summary(generate(out).stderr)).toMatch(/pkg: 0 written, \d+ unchanged, 0 removed$/);
  rmSync(join(out, "dist"), { recursive: true });
  const rebuilt = generate(out);
  expect(summary(rebuilt.stderr)).toMatch(/pkg: 0 written, \d+ unchanged, 0 removed; dist\/: \d+ compiled$/);
  expect(JSON.parse(generate(out, "--format", "json").stdout).distCompiled).toBe(0);
  rmSync(join(out, "dist/server.js"));
  expect(JSON.parse(generate(out, "--format", "json").stdout).distCompiled).toBeGreaterThan(0);
});
