/** The MCP surface summary of `generate`: read back from a package on disk, from its catalog
 * (src/catalog.json, src/manifest.json in packages from before the rename) or, for packages from an
 * older mcpgen still, from either form of src/manifest.ts. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { surfaceMarkdown } from "../../generator/cli/generate-report.ts";
import { OutputDir } from "../../generator/output/output-dir.ts";
import { surfaceChanges, surfaceDiff, surfaceOnDisk } from "../../generator/output/surface-diff.ts";
import { lit } from "../../generator/render/ts.ts";
import { scratchDir } from "./support.ts";

const surface = {
  tools: [{ name: "a", description: "x" }, { name: "b" }],
  resources: [{ uri: "r://1" }],
  resourceTemplates: [],
  prompts: [{ name: "p" }],
};

function packageWith(source: string, path = "src/manifest.ts"): OutputDir {
  const dir = scratchDir("surface");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, path), source);
  return new OutputDir(dir);
}

describe("surface diff", () => {
  it("reads the catalog, src/catalog.json", () => {
    const dir = packageWith("// a definition.ts that only points at the catalog\n", "src/definition.ts");
    writeFileSync(dir.abs("src/catalog.json"), JSON.stringify({ "//": "header", ...surface }));
    expect(surfaceOnDisk(dir)).toEqual({ "//": "header", ...surface });
    expect(surfaceChanges(surfaceOnDisk(dir), surface)).toEqual([]);
  });

  it("reads a package's catalog under the name it had before, src/manifest.json, when there is no src/catalog.json", () => {
    const dir = packageWith("// a manifest.ts that only points at the catalog\n");
    writeFileSync(dir.abs("src/manifest.json"), JSON.stringify(surface));
    expect(surfaceOnDisk(dir)).toEqual(surface);
    writeFileSync(dir.abs("src/catalog.json"), JSON.stringify({ ...surface, prompts: [] }));
    expect(surfaceOnDisk(dir).prompts).toEqual([]);
  });

  it("reads an older package's object-literal manifest and a JSON.parse one (large APIs) alike", () => {
    const plain = packageWith(`// header\nexport const manifest: Manifest = ${lit(surface, 2)};\n`);
    const wrapped = packageWith(
      `// header\nexport const manifest: Manifest = JSON.parse(${lit(JSON.stringify(surface))}) as Manifest;\n`,
    );
    expect(surfaceOnDisk(plain)).toEqual(surface);
    expect(surfaceOnDisk(wrapped)).toEqual(surface);
  });

  it("names what was added, changed and removed", () => {
    const after = { ...surface, tools: [{ name: "a", description: "y" }, { name: "c" }], prompts: [] };
    expect(surfaceChanges(surface, after)).toEqual(["~ tool a", "+ tool c", "- tool b", "- prompt p"]);
  });

  it("treats a missing or unreadable manifest as an empty surface", () => {
    expect(surfaceOnDisk(new OutputDir(join(scratchDir("surface"), "nope"))).tools).toEqual([]);
    expect(surfaceOnDisk(packageWith("garbage")).tools).toEqual([]);
  });

  it("shows a renamed tool as one '>' line, only when the old name is gone and the new one is new", () => {
    const after = { ...surface, tools: [{ name: "a", description: "x" }, { name: "c" }] };
    expect(surfaceChanges(surface, after, new Map([["c", "b"]]))).toEqual(["> tool b -> c"]);
    expect(surfaceChanges(surface, after, new Map([["c", "zz"]]))).toEqual(["+ tool c", "- tool b"]);
  });

  it("--summary-md: a Markdown table whose names can break no table, code span or HTML", () => {
    const evil = "x://a|b`<img src=x onerror=alert(1)>\n# heading";
    const after = { ...surface, resources: [{ uri: evil }], tools: [surface.tools[0], { name: "c" }] };
    const result = {
      diagnostics: [],
      outcome: {} as never,
      surface: surfaceDiff(surface, after, new Map([["c", "b"]])),
    };
    const md = surfaceMarkdown(result, { spec: "s.yaml", out: "pkg", check: true, format: "text" });
    expect(md).toContain("1 added, 1 removed, 1 renamed.");
    expect(md).toContain("| renamed | tool | `b` → `c` |");
    expect(md).toContain("| added | resource | ``x://a\\|b`<img src=x onerror=alert(1)> # heading`` |");
    expect(md).not.toContain("\n# heading");
  });
});
