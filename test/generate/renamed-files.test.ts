/**
 * Issue 28: "manifest" names only the MCPB manifest now. A package from before calls three more files so:
 * src/manifest.ts (now src/definition.ts), src/manifest.json (now src/catalog.json) and
 * runtime/package/manifest-types.ts (now runtime/package/catalog-types.ts). A regenerate removes them
 * because the package's ownership record says mcpgen wrote them (never a file of those names it did not
 * write), reads the old catalog for the surface summary, and tells a handler that imported
 * src/manifest.ts where it went.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { FINGERPRINT_FILE } from "../../generator/output/fingerprint.ts";
import { OWNERSHIP_FILE } from "../../generator/output/ownership.ts";
import { scratchDir } from "./support.ts";

const SPEC = `server: { name: renamed, version: 1.0.0, registryName: io.github.mcpgen-examples/renamed }
tools:
  - name: hello
    description: Says hello
    inputSchema: { type: object, properties: { who: { type: string } } }
`;

/** [name before the rename, name now] of each file mcpgen writes, then of its dist/ twin. */
const RENAMED = [
  ["src/manifest.ts", "src/definition.ts"],
  ["src/manifest.json", "src/catalog.json"],
  ["runtime/package/manifest-types.ts", "runtime/package/catalog-types.ts"],
];
const DIST_TWINS = [
  ["dist/src/manifest.js", "dist/src/definition.js"],
  ["dist/src/manifest.json", "dist/src/catalog.json"],
  ["dist/runtime/package/manifest-types.js", "dist/runtime/package/catalog-types.js"],
];
const OLD = RENAMED.map(([old]) => old).sort();

async function freshPackage(prefix: string): Promise<{ spec: string; out: string }> {
  const dir = scratchDir(prefix);
  const spec = join(dir, "spec.yaml");
  const out = join(dir, "pkg");
  writeFileSync(spec, SPEC);
  await generate(spec, out);
  return { spec, out };
}

/**
 * A package as the mcpgen before the rename left it: generated now, then each renamed file and its dist/
 * twin moved back to its old name, and the ownership record listing the old names (no fingerprint: it
 * was another mcpgen).
 */
async function packageBeforeRename(): Promise<{ spec: string; out: string }> {
  const pkg = await freshPackage("renamed-files");
  for (const [old, now] of [...RENAMED, ...DIST_TWINS]) renameSync(join(pkg.out, now), join(pkg.out, old));
  const record = JSON.parse(readFileSync(join(pkg.out, OWNERSHIP_FILE), "utf8"));
  const oldName = new Map(RENAMED.map(([old, now]) => [now, old]));
  record.generated = record.generated.map((path: string) => oldName.get(path) ?? path);
  writeFileSync(join(pkg.out, OWNERSHIP_FILE), JSON.stringify(record));
  rmSync(join(pkg.out, FINGERPRINT_FILE));
  return pkg;
}

describe("the files renamed so that 'manifest' means the MCPB manifest only", () => {
  it("--check lists the old files as removed and the surface as unchanged; generate removes them and their dist/ copies", async () => {
    const { spec, out } = await packageBeforeRename();
    const check = await generate(spec, out, { check: true });
    expect(check.outcome?.removed).toEqual(OLD);
    expect(check.outcome?.missing).toEqual(expect.arrayContaining(RENAMED.map(([, now]) => now)));
    // Read from src/manifest.json: for a client nothing changed.
    expect(check.surface).toEqual([]);
    for (const path of OLD) expect(existsSync(join(out, path)), path).toBe(true);

    const run = await generate(spec, out);
    expect(run.diagnostics).toEqual([]);
    expect(run.outcome?.removed).toEqual(OLD);
    for (const [old, now] of [...RENAMED, ...DIST_TWINS]) {
      expect(existsSync(join(out, old)), old).toBe(false);
      expect(existsSync(join(out, now)), now).toBe(true);
    }
    const { generated } = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), "utf8"));
    expect(generated).toEqual(expect.arrayContaining(RENAMED.map(([, now]) => now)));
    for (const path of OLD) expect(generated).not.toContain(path);
    // The MCPB manifest keeps its name.
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).manifest_version).toBe("0.3");
    expect((await generate(spec, out)).outcome?.removed).toEqual([]);
  });

  it("never removes a file of an old name that mcpgen did not write", async () => {
    const { spec, out } = await freshPackage("renamed-files-mine");
    const mine = { "src/manifest.json": '{ "mine": true }\n', "src/manifest.ts": "export const mine = 1;\n" };
    for (const [path, text] of Object.entries(mine)) writeFileSync(join(out, path), text);
    const run = await generate(spec, out);
    expect(run.outcome?.removed).toEqual([]);
    for (const [path, text] of Object.entries(mine)) expect(readFileSync(join(out, path), "utf8")).toBe(text);
  });

  it("tells a handler that imports src/manifest.ts that it is src/definition.ts now", async () => {
    const { spec, out } = await freshPackage("renamed-files-handler");
    const handler = join(out, "src/handlers/tools/hello.ts");
    const scaffold = readFileSync(handler, "utf8");
    const written = scaffold
      .replace(/\n\n/, '\nimport { manifest } from "../../manifest.ts";\n\n')
      .replace(
        /return notImplemented\([^)]*\);/,
        'return { content: [{ type: "text", text: manifest.server.name }] };',
      );
    expect(written).not.toBe(scaffold);
    writeFileSync(handler, written);
    const run = await generate(spec, out);
    const moved = run.diagnostics.find(
      (d) => d.code === "HANDLER_TYPE_ERROR" && d.message.includes("Cannot find module"),
    );
    expect(moved?.message).toContain("Cannot find module '../../manifest.ts'");
    expect(moved?.hint).toBe(
      "src/manifest.ts is src/definition.ts now: import { definition } from '../../definition.ts' (what src/manifest.ts exported as `manifest`)",
    );
  });
});
