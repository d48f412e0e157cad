/**
 * Large generated files are staged beside --out as they are made and moved in by the write (issue 32,
 * generator/output/staging.ts): the package is the same as one rendered in memory, nothing lands in
 * --out before the conflict check passes, and no staging folder is left behind, not even a killed run's.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, generate } from "../../generator/index.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { STAGE_MIN_CHARS, Staging } from "../../generator/output/staging.ts";
import { render } from "../../generator/render/index.ts";
import { ROOT, scratchDir } from "./support.ts";

const PETSTORE = join(ROOT, "specs/petstore.yaml");

/** Folders beside `out` named like a staging folder of it. */
function stagingFolders(out: string): string[] {
  return readdirSync(dirname(out)).filter((name) => name.startsWith(`.${basename(out)}.mcpgen-staging-`));
}

/** Every file under `root` but mcpgen's run record and `dist/` (the golden packages commit no dist/: their
 * .gitignore leaves it out, so a clean clone has none), path → text. */
function tree(root: string, under = ""): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(root, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (path === ".mcpgen/fingerprint.json" || path === "dist") continue;
    if (entry.isDirectory()) for (const [p, c] of tree(root, path)) files.set(p, c);
    else files.set(path, readFileSync(join(root, path), "utf8"));
  }
  return files;
}

describe("staged files", () => {
  it("render with a staging folder gives the files it gives in memory; the large ones are staged", async () => {
    const { model } = buildModel(PETSTORE);
    if (!model) throw new Error("petstore did not build");
    const inMemory = await render(model);
    const out = join(scratchDir("staging-render"), "pkg");
    const staging = new Staging(out);
    try {
      const staged = await render(model, [], staging);
      expect(staged.map((f) => f.path)).toEqual(inMemory.map((f) => f.path));
      // Generated files; the runtime's are copied as they are, from mcpgen's own (read once, cached).
      const large = inMemory.filter(
        (f) => f.owner === "mcpgen" && !f.path.startsWith("runtime/") && f.content.length >= STAGE_MIN_CHARS,
      );
      expect(large.map((f) => f.path)).toContain("src/validators/0.cjs");
      expect(staged.filter((f) => f.staged !== undefined).map((f) => f.path)).toEqual(large.map((f) => f.path));
      staged.forEach((file, index) => {
        expect(file.content, file.path).toBe(inMemory[index].content);
      });
      expect(stagingFolders(out)).toHaveLength(1);
    } finally {
      staging.dispose();
    }
    expect(stagingFolders(out)).toEqual([]);
    // Nothing of the package was made: the staging folder sits beside it.
    expect(existsSync(out)).toBe(false);
  });

  it("generate writes the staged files, --check compares them, and no staging folder is left", async () => {
    const out = join(scratchDir("staging-generate"), "pkg");
    const first = await generate(PETSTORE, out);
    expect(first.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(stagingFolders(out)).toEqual([]);
    const golden = tree(join(ROOT, "generated/petstore"));
    const written = tree(out);
    // The same package as the golden one (its file headers name the spec relative to the package).
    expect([...written.keys()].sort()).toEqual([...golden.keys()].sort());
    expect(written.get("src/validators/0.cjs")?.length).toBeGreaterThanOrEqual(STAGE_MIN_CHARS);

    const check = await generate(PETSTORE, out, { check: true });
    expect(check.outcome?.changed).toEqual([]);
    // A staged file changed on disk is drift, and a regenerate puts it back.
    const chunk = join(out, "src/validators/0.cjs");
    const bytes = readFileSync(chunk, "utf8");
    writeFileSync(chunk, `${bytes}// edited\n`);
    const drift = await generate(PETSTORE, out, { check: true });
    expect(drift.outcome?.changed).toEqual(["src/validators/0.cjs"]);
    const again = await generate(PETSTORE, out);
    expect(again.outcome?.changed).toEqual(["src/validators/0.cjs"]);
    expect(readFileSync(chunk, "utf8")).toBe(bytes);
    expect(stagingFolders(out)).toEqual([]);
  });

  it("a generate refused by the conflict check leaves --out as it was and no staging folder", async () => {
    const out = join(scratchDir("staging-refused"), "pkg");
    mkdirSync(out);
    writeFileSync(join(out, "notes.txt"), "mine\n");
    const result = await generate(PETSTORE, out);
    expect(result.diagnostics.map((d) => d.code)).toContain("OUTPUT_NOT_OWNED");
    expect(readdirSync(out)).toEqual(["notes.txt"]);
    expect(stagingFolders(out)).toEqual([]);
  });

  it("a killed run's staging folder is removed by the next run; a running one's is left alone", async () => {
    const out = join(scratchDir("staging-abandoned"), "pkg");
    // The id of a process that has ended: no run of that id can still be using its folder.
    const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    const abandoned = join(dirname(out), `.${basename(out)}.mcpgen-staging-${ended}-a1b2c3`);
    const running = join(dirname(out), `.${basename(out)}.mcpgen-staging-${process.ppid}-d4e5f6`);
    for (const folder of [abandoned, running]) {
      mkdirSync(folder);
      writeFileSync(join(folder, "0"), "left over");
    }
    await generate(PETSTORE, out);
    expect(existsSync(abandoned)).toBe(false);
    expect(stagingFolders(out)).toEqual([basename(running)]);
  });

  it("a package folder whose parent cannot be written keeps its files in memory", async () => {
    const missing = join(scratchDir("staging-no-parent"), "not-yet", "pkg");
    const staging = new Staging(new OutputDir(missing).root);
    expect(staging.put("x".repeat(STAGE_MIN_CHARS))).toBeUndefined();
    staging.dispose();
  });
});
