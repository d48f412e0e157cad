/**
 * src/manifest.json stores each shared `$defs` entry once; the runtime's readCatalog must give every
 * tool its whole, self-contained schemas back, exactly as the model has them (what tools/list sends).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics.ts";
import { load } from "../../generator/load.ts";
import { normalize } from "../../generator/normalize.ts";
import { catalogData, manifestData } from "../../generator/render/manifest.ts";
import { readCatalog } from "../../runtime/spec-server.ts";
import { ROOT } from "./support.ts";

describe("the stored catalog", () => {
  for (const name of ["petstore", "conformance", "weather"]) {
    it(`${name}: readCatalog gives back every tool's schemas whole`, () => {
      const loaded = load(join(ROOT, `specs/${name}.yaml`), new DiagnosticBag())!;
      const model = normalize(loaded.server, "x");
      const catalog = readCatalog(pathToFileURL(join(ROOT, `generated/${name}/src/manifest.json`)));
      const expected = manifestData(model).catalog;
      expect(catalog.tools).toEqual(expected.tools);
      expect(catalog.prompts).toEqual(expected.prompts);
      expect(catalog).not.toHaveProperty("defs");
    });
  }

  it("holds each shared definition once, and only the ones tools use", () => {
    const loaded = load(join(ROOT, "specs/petstore.yaml"), new DiagnosticBag())!;
    const stored = catalogData(normalize(loaded.server, "x"));
    const uses = stored.tools.flatMap((tool) => [
      ...Object.values(tool.inputDefs ?? {}),
      ...Object.values(tool.outputDefs ?? {}),
    ]);
    const defs = stored.defs ?? {};
    expect(new Set(uses)).toEqual(new Set(Object.keys(defs)));
    expect(uses.length).toBeGreaterThan(Object.keys(defs).length); // shared between tools
    const contents = Object.values(defs).map((def) => JSON.stringify(def));
    expect(new Set(contents).size).toBe(contents.length);
  });
});
