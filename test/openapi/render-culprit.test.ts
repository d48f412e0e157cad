/**
 * RENDER_FAILED names the schema that broke rendering and points at it in the document, not at the
 * document's first line. No known document makes the type generator throw any more (the allOf cycle
 * that did is fixed, repair.large.ts), so a stand-in throws on one marked schema: in the one compile of
 * every type (types-in-place.ts) and in each compile of the search for the schema to blame (the library's).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { generate } from "../../generator/index.ts";
import { scratchDir } from "../generate/support.ts";

vi.mock("json-schema-to-typescript", async (original) => {
  const real = await original<typeof import("json-schema-to-typescript")>();
  return {
    ...real,
    compile: async (
      schema: unknown,
      ...rest: Parameters<typeof real.compile> extends [unknown, ...infer R] ? R : never
    ) => {
      if (JSON.stringify(schema).includes("BOOM"))
        throw new TypeError("Cannot read properties of undefined (reading 'push')");
      return real.compile(schema as never, ...rest);
    },
  };
});

vi.mock("../../generator/render/types-in-place.ts", async (original) => {
  const real = await original<typeof import("../../generator/render/types-in-place.ts")>();
  return {
    compileInPlace: async (...args: Parameters<typeof real.compileInPlace>) => {
      if (JSON.stringify(args[0]).includes("BOOM"))
        throw new TypeError("Cannot read properties of undefined (reading 'push')");
      return real.compileInPlace(...args);
    },
  };
});

describe("RENDER_FAILED", () => {
  it("points at the schema that broke, in the document, and names its type", async () => {
    // Without the cache: an earlier run's types of the same document (compiled by the real library) would
    // be served without compiling anything.
    vi.stubEnv("MCPGEN_CACHE", "off");
    const out = join(scratchDir("render-culprit"), "pkg");
    const result = await generate(join(import.meta.dirname, "fixtures/render-culprit.yaml"), out);
    expect(result.diagnostics.map((d) => [d.code, d.pointer, `${d.line}:${d.col}`, d.message])).toEqual([
      [
        "RENDER_FAILED",
        "/components/schemas/Inner",
        "17:7",
        "cannot render the package: Cannot read properties of undefined (reading 'push') (type Inner)",
      ],
    ]);
    vi.unstubAllEnvs();
  });

  it("in a JSON document, whose text generate lets go after the rules: found again from its bytes", async () => {
    vi.stubEnv("MCPGEN_CACHE", "off");
    const dir = scratchDir("render-culprit-json");
    // A character past Latin-1 and a byte-order mark: the text is found again exactly as it was read.
    const document = parse(readFileSync(join(import.meta.dirname, "fixtures/render-culprit.yaml"), "utf8"));
    document.info.description = "Überprüft – “quoted”";
    const text = JSON.stringify(document, null, 2);
    writeFileSync(join(dir, "culprit.json"), `\uFEFF${text}`);
    // Where the schema itself (the object) begins.
    const lines = text.slice(0, text.indexOf('"Inner": {') + '"Inner": '.length).split("\n");
    const result = await generate(join(dir, "culprit.json"), join(dir, "pkg"));
    expect(result.diagnostics.map((d) => [d.code, d.pointer, `${d.line}:${d.col}`])).toEqual([
      ["RENDER_FAILED", "/components/schemas/Inner", `${lines.length}:${(lines.at(-1)?.length ?? 0) + 1}`],
    ]);
    vi.unstubAllEnvs();
  });
});
