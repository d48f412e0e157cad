/**
 * A generated package carries only the runtime files its code imports (issue 13 §3): the import-graph
 * walk over a fake runtime, the scanner held to TypeScript's own on every real runtime file, and the
 * workflow: a runtime file an earlier run wrote and no package file needs any more is removed and
 * reported, while one the user's code imports stays.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { OWNERSHIP_FILE } from "../../generator/output/ownership.ts";
import { render } from "../../generator/render/index.ts";
import {
  importSpecifiers,
  runtimeClosure,
  runtimeFilesFor,
  runtimeReader,
  runtimeRoots,
} from "../../generator/render/runtime-files.ts";
import { examples } from "../../scripts/regen.ts";
import { ROOT, scratchDir } from "./support.ts";

/** The specifiers TypeScript reads in a source, sorted, each once. */
function typescriptImports(source: string): string[] {
  return [...new Set(ts.preProcessFile(source, true, true).importedFiles.map((i) => i.fileName))].sort();
}

/** Writes a fake runtime folder (path → content) and returns its reader. */
function fakeRuntime(files: Record<string, string>) {
  const root = scratchDir("fake-runtime");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return runtimeReader(root);
}

const FAKE = {
  "README.md": "# runtime\n",
  "index.ts": 'export { serve } from "./server/serve.ts";\nexport type * from "./protocol/types.ts";\n',
  "server/serve.ts": [
    'import type { Wire } from "../protocol/types.ts";',
    "import {",
    "  codec,",
    '} from "../protocol/codec.ts";',
    "export async function serve(w: Wire) {",
    '  const { http } = await import("../transport/http/server.ts");',
    "  return http(codec(w));",
    "}",
  ].join("\n"),
  // A cycle: codec and types import each other.
  "protocol/codec.ts": 'import type { Wire } from "./types.ts";\nexport const codec = (w: Wire) => w;\n',
  "protocol/types.ts": 'import type { codec } from "./codec.ts";\nexport type Wire = ReturnType<typeof codec>;\n',
  "transport/http/server.ts": 'import "../../protocol/codec.ts";\nexport const http = (x: unknown) => x;\n',
  // Reached by nothing: a commented-out import, an import quoted in a string, a client.
  "transport/http/client.ts": "export const client = 1;\n",
  "unused.ts": "// import { client } from './transport/http/client.ts';\nexport const s = \"import './index.ts'\";\n",
};

describe("the runtime import graph", () => {
  it("reads every form of import and re-export, and none in comments or strings", () => {
    const source = [
      'import a from "./a.ts";',
      "import type { B } from './b.ts';",
      'import * as c from "./c.ts";',
      'import d, { e as f, type G } from "./d.ts";',
      'import {\n  h,\n  type I,\n} from "./h.ts";',
      'import { j,\n  k } from "./j.ts";',
      'import "./side-effect.ts";',
      'export { l } from "./l.ts";',
      'export * from "./m.ts";',
      'export type * from "./n.ts";',
      'const o = await import("./o.ts");',
      'const p = import("./p.ts", { with: { type: "json" } });',
      '// import q from "./q.ts";',
      '/*\n * export { r } from "./r.ts";\n */',
      'const s = Array.from("./s.ts");',
      'import t from "./a.ts";',
    ].join("\n");
    const want = ["./a.ts", "./b.ts", "./c.ts", "./d.ts", "./h.ts", "./j.ts", "./side-effect.ts"];
    want.push("./l.ts", "./m.ts", "./n.ts", "./o.ts", "./p.ts");
    expect(importSpecifiers(source)).toEqual(want);
    expect(typescriptImports(source)).toEqual([...want].sort());
  });

  it("follows static, type-only, re-exported, bare and dynamic imports through nested folders and cycles", () => {
    const read = fakeRuntime(FAKE);
    const closure = runtimeClosure(["server/serve.ts"], read).map((f) => f.path);
    expect(closure).toEqual(["protocol/codec.ts", "protocol/types.ts", "server/serve.ts", "transport/http/server.ts"]);
    expect(runtimeClosure(["index.ts"], read).map((f) => f.path)).toEqual(["index.ts", ...closure]);
    expect(runtimeClosure(["unused.ts"], read).map((f) => f.path)).toEqual(["unused.ts"]);
  });

  it("starts from what the package's files import, at any depth below src/, and copies content byte for byte", () => {
    const read = fakeRuntime(FAKE);
    const sources = [
      { path: "src/app.ts", content: 'import { serve } from "../runtime/index.ts";\nimport { x } from "./lib.ts";\n' },
      {
        path: "src/handlers/tools/a.ts",
        content: 'import type { Wire } from "../../../runtime/protocol/types.ts";\nimport "node:fs";\n',
      },
      // Not a source file; and a specifier the runtime has no file for is not followed.
      { path: "src/catalog.json", content: '{"a": "import x from \\"../runtime/unused.ts\\""}' },
      { path: "src/other.ts", content: 'import { nothing } from "../runtime/missing.ts";\n' },
    ];
    expect(runtimeRoots(sources, read)).toEqual(["index.ts", "protocol/types.ts"]);
    const files = runtimeFilesFor(sources, read);
    expect(files.map((f) => f.path)).toEqual([
      "runtime/README.md",
      "runtime/index.ts",
      "runtime/protocol/codec.ts",
      "runtime/protocol/types.ts",
      "runtime/server/serve.ts",
      "runtime/transport/http/server.ts",
    ]);
    for (const file of files) expect(file.content).toBe(read(file.path.slice("runtime/".length)));
    expect(runtimeFilesFor([{ path: "src/a.ts", content: "export {};\n" }], read)).toEqual([]);
  });

  it("refuses a runtime import that leaves the runtime or names a missing file (a defect of the runtime)", () => {
    const read = fakeRuntime({ "a.ts": 'import "../outside.ts";\n', "b.ts": 'export * from "./gone.ts";\n' });
    expect(() => runtimeClosure(["a.ts"], read)).toThrow("runtime/a.ts imports '../outside.ts', outside the runtime");
    expect(() => runtimeClosure(["b.ts"], read)).toThrow("runtime/b.ts imports './gone.ts', which does not exist");
  });

  it("reads every import of every real runtime file as TypeScript does", () => {
    const dir = join(ROOT, "runtime");
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const source = readFileSync(join(dir, file), "utf8");
      expect(importSpecifiers(source).sort(), file).toEqual(typescriptImports(source));
    }
  });
});

describe("the runtime of a generated package", () => {
  it("is exactly what its src/ reaches, for every example spec; compile-schema.ts is not among it", async () => {
    const { load } = await import("../../generator/load.ts");
    const { normalize } = await import("../../generator/normalize/normalize.ts");
    const { DiagnosticBag } = await import("../../generator/diagnostics/diagnostic.ts");
    const read = runtimeReader();
    const carried = new Map<string, number>();
    for (const { spec } of examples()) {
      const loaded = load(spec, new DiagnosticBag());
      const files = await render(normalize(loaded!.server, "spec"));
      const runtime = files.filter((f) => f.path.startsWith("runtime/")).map((f) => f.path);
      const sources = files.filter((f) => f.path.startsWith("src/"));
      for (const { path, content } of sources.filter((f) => f.path.endsWith(".ts"))) {
        expect(importSpecifiers(content).sort(), path).toEqual(typescriptImports(content));
      }
      const reached = runtimeClosure(runtimeRoots(sources, read), read).map((f) => `runtime/${f.path}`);
      expect(runtime, spec).toEqual(["runtime/README.md", ...reached].sort());
      expect(runtime, spec).not.toContain("runtime/protocol/compile-schema.ts");
      expect(files.find((f) => f.path === "tsconfig.json")?.content, spec).not.toContain("exclude");
      // The upstream forwarding code only where the spec has an upstream: the definition passes callUpstream.
      const withUpstream = loaded!.server.upstream !== undefined;
      expect(runtime.includes("runtime/upstream/forward.ts"), spec).toBe(withUpstream);
      expect(files.find((f) => f.path === "src/definition.ts")?.content.includes("  callUpstream,\n"), spec).toBe(
        withUpstream,
      );
      carried.set(spec.split("/").pop()!, runtime.length);
    }
    // Both kinds are among the examples; those without an upstream carry fewer files.
    expect(carried.get("notes.yaml")).toBeLessThan(carried.get("weather.yaml")!);
  });
});

describe("regenerating a package from an earlier mcpgen", () => {
  // No handlers, so no handler type-check: these tests are about the files alone.
  const SPEC = `server: { name: rt, version: 1.0.0 }
resources:
  - { uri: "rt://about", name: about, mimeType: text/plain, text: hello }
`;

  /**
   * A package as an mcpgen that copied the whole runtime left it: every runtime file written and recorded
   * as mcpgen's, and one from a runtime layout since gone, in a folder of its own. `dropped`: what a
   * regenerate must remove, the runtime files this package does not reach.
   */
  async function olderPackage(): Promise<{ spec: string; out: string; dropped: string[] }> {
    const dir = scratchDir("runtime-subset");
    const spec = join(dir, "spec.yaml");
    const out = join(dir, "out");
    writeFileSync(spec, SPEC);
    await generate(spec, out);
    const record = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), "utf8"));
    const carried = new Set(record.generated as string[]);
    cpSync(join(ROOT, "runtime"), join(out, "runtime"), { recursive: true });
    const full = (readdirSync(join(ROOT, "runtime"), { recursive: true }) as string[])
      .filter((f) => statSync(join(ROOT, "runtime", f)).isFile())
      .map((f) => `runtime/${f}`);
    mkdirSync(join(out, "runtime/legacy/http"), { recursive: true });
    writeFileSync(join(out, "runtime/legacy/http/old-client.ts"), "export {};\n");
    const older = [...full, "runtime/legacy/http/old-client.ts"];
    writeFileSync(join(out, OWNERSHIP_FILE), JSON.stringify({ ...record, generated: [...carried, ...older] }));
    return { spec, out, dropped: older.filter((path) => !carried.has(path)).sort() };
  }

  it("removes the runtime files mcpgen wrote that nothing imports now, with their empty folders, and says so", async () => {
    const { spec, out, dropped } = await olderPackage();
    expect(dropped).toEqual(
      expect.arrayContaining(["runtime/protocol/compile-schema.ts", "runtime/upstream/forward.ts"]),
    );
    writeFileSync(join(out, "runtime/mine.ts"), "export const mine = 1;\n");
    const check = await generate(spec, out, { check: true });
    expect(check.outcome?.removed).toEqual(dropped);
    expect(existsSync(join(out, "runtime/protocol/compile-schema.ts"))).toBe(true);
    const run = await generate(spec, out);
    expect(run.outcome?.removed).toEqual(dropped);
    for (const path of dropped) expect(existsSync(join(out, path)), path).toBe(false);
    expect(existsSync(join(out, "runtime/legacy"))).toBe(false);
    // Never a file mcpgen did not write.
    expect(readFileSync(join(out, "runtime/mine.ts"), "utf8")).toBe("export const mine = 1;\n");
    const generated = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), "utf8")).generated;
    for (const path of dropped) expect(generated).not.toContain(path);
    expect((await generate(spec, out)).outcome?.removed).toEqual([]);
  });

  it("keeps a runtime file the user's own code imports, and drops it once that import is gone", async () => {
    const { spec, out, dropped } = await olderPackage();
    const helper = join(out, "src/schemas.ts");
    writeFileSync(
      helper,
      'import { compileSchema } from "../runtime/protocol/compile-schema.ts";\nexport const c = compileSchema;\n',
    );
    const run = await generate(spec, out);
    expect(run.outcome?.removed).toEqual(dropped.filter((path) => path !== "runtime/protocol/compile-schema.ts"));
    expect(readFileSync(join(out, "runtime/protocol/compile-schema.ts"), "utf8")).toBe(
      readFileSync(join(ROOT, "runtime/protocol/compile-schema.ts"), "utf8"),
    );
    expect((await generate(spec, out, { check: true })).outcome?.changed).toEqual([]);
    writeFileSync(helper, "export const c = 1;\n");
    expect((await generate(spec, out)).outcome?.removed).toEqual(["runtime/protocol/compile-schema.ts"]);
  });
});
