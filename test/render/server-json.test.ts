/**
 * server.json for the MCP Registry (render/registry-server-json.ts): valid against the official
 * 2025-12-11 schema (vendored), version and name in step with package.json, every environment
 * variable listed with credentials secret, description within the registry's 100 characters.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/build-model.ts";
import { renderPackageJson } from "../../generator/render/package-files.ts";
import { REGISTRY_SCHEMA, renderRegistryServerJson } from "../../generator/render/registry-server-json.ts";
import { AjvDraft07, addFormats } from "../../generator/schema/ajv.ts";
import { ROOT } from "../generate/support.ts";
import { model, tool } from "./model.ts";

const schemaFile = join(ROOT, "generator/schema/vendor/mcp-registry-server.2025-12-11.schema.json");
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
// The registry's schema carries `example` keywords (OpenAPI's), which strict mode would refuse.
const ajv = new AjvDraft07({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const SPECS = ["petstore.yaml", "weather.yaml", "notes.yaml", "tasks.json", "conformance.yaml"];

describe("server.json", () => {
  it("the vendored schema is the 2025-12-11 one the file names", () => {
    expect(schema.$id).toBe(REGISTRY_SCHEMA);
  });

  for (const spec of SPECS) {
    it(`${spec}: valid against the registry schema; version and name equal package.json's`, () => {
      const { model: built } = buildModel(join(ROOT, "specs", spec));
      const doc = JSON.parse(renderRegistryServerJson(built!));
      const pkg = JSON.parse(renderPackageJson(built!));
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(doc.version).toBe(pkg.version);
      expect(doc.packages[0]).toMatchObject({ registryType: "npm", identifier: pkg.name, version: pkg.version });
      expect(doc.name).toBe(pkg.mcpName);
      expect(doc.description.length).toBeLessThanOrEqual(100);
    });
  }

  it("petstore: the API key is a secret; the URL variable has its default and choices", () => {
    const { model: built } = buildModel(join(ROOT, "specs/petstore.yaml"));
    const doc = JSON.parse(renderRegistryServerJson(built!));
    expect(doc.packages[0].transport).toEqual({ type: "stdio" });
    expect(doc.packages[0].environmentVariables).toEqual([
      expect.objectContaining({ name: "PETSTORE_API_KEY", isSecret: true }),
      expect.objectContaining({
        name: "PETSTORE_SERVER_REGION",
        isSecret: false,
        default: "eu",
        choices: ["eu", "us"],
      }),
    ]);
  });

  it("a long description is cut to 100 characters; an API version that is not semver gives 0.0.0 in both files", () => {
    const long = model({ description: "word ".repeat(60), version: "2015-04-01", tools: [tool("a")] });
    const doc = JSON.parse(renderRegistryServerJson(long));
    expect(doc.description.length).toBeLessThanOrEqual(100);
    expect(doc.description.endsWith("…")).toBe(true);
    expect([doc.version, JSON.parse(renderPackageJson(long)).version]).toEqual(["0.0.0", "0.0.0"]);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    // The schema does hold the registry's limits: one character more is refused.
    expect(validate({ ...doc, description: "x".repeat(101) })).toBe(false);
    expect(validate({ ...doc, name: "no-slash" })).toBe(false);
  });

  it("the spec's package.registryName names the entry and package.json's mcpName", () => {
    const named = model({ registryName: "io.github.me/weather" });
    expect(JSON.parse(renderRegistryServerJson(named)).name).toBe("io.github.me/weather");
    expect(JSON.parse(renderPackageJson(named)).mcpName).toBe("io.github.me/weather");
  });
});
