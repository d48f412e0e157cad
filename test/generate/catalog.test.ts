/**
 * src/catalog.json stores each shared `$defs` entry once; the runtime's readCatalog must give every
 * tool its whole, self-contained schemas back, exactly as the model has them (what tools/list sends).
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { buildModel, type Model } from "../../generator/index.ts";
import { catalogData, definitionData } from "../../generator/render/definition.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { ROOT, scratchDir } from "./support.ts";

function modelOf(spec: string): Model {
  const { model, diagnostics } = buildModel(resolve(ROOT, spec));
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return model!;
}

describe("the stored catalog", () => {
  for (const name of ["petstore", "conformance", "weather"]) {
    it(`${name}: readCatalog gives back every tool's schemas whole`, () => {
      const model = modelOf(`specs/${name}.yaml`);
      const catalog = readCatalog(pathToFileURL(join(ROOT, `generated/${name}/src/catalog.json`)));
      const expected = definitionData(model).catalog;
      expect(catalog.tools).toEqual(expected.tools);
      expect(catalog.prompts).toEqual(expected.prompts);
      expect(catalog).not.toHaveProperty("defs");
    });
  }

  it("holds each shared definition once, and only the ones tools use", () => {
    // A definition used once by a tool is inlined in tools/list (compact-schema.ts): each tool here uses
    // Pet twice, so it stays a definition, stored once for both tools.
    const pair = {
      type: "object",
      properties: { a: { $ref: "#/components/schemas/Pet" }, b: { $ref: "#/components/schemas/Pet" } },
    };
    const body = { required: true, content: { "application/json": { schema: pair } } };
    const ok = { "200": { description: "ok" } };
    const file = join(scratchDir("catalog"), "shared.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "shared", version: "1.0.0" },
        paths: {
          "/one": { post: { operationId: "one", requestBody: body, responses: ok } },
          "/two": { post: { operationId: "two", requestBody: body, responses: ok } },
        },
        components: { schemas: { Pet: { type: "object", properties: { id: { type: "string" } } } } },
      }),
    );
    const stored = catalogData(modelOf(file));
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
