/**
 * Issue 16 (publishing): server.json for the MCP Registry and the MCPB manifest, for every spec of specs/.
 * server.json is held to the registry's own schema (vendored, draft-07), names every credential as a
 * secret, and keeps package.json's version; generate --check reports a version bumped in one file only.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, generate } from "../../generator/index.ts";
import type { Model } from "../../generator/normalize/normalize.ts";
import { BUNDLE_ENTRY_POINT, renderMcpbManifest } from "../../generator/render/mcpb-manifest.ts";
import { renderPackageJson } from "../../generator/render/package-files.ts";
import { REGISTRY_SCHEMA_URL, renderServerJson } from "../../generator/render/registry-server-json.ts";
import { AjvDraft07, addFormats } from "../../generator/schema/ajv.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const SPECS = readdirSync(join(ROOT, "specs")).filter((f) => /\.(ya?ml|json)$/.test(f));
const SCHEMA = JSON.parse(
  readFileSync(join(ROOT, "generator/render/vendor/server-json-2025-12-11.schema.json"), "utf8"),
);
// strict: false: the registry's schema uses OpenAPI's `example`, which is no JSON Schema keyword.
const validate = (addFormats(new AjvDraft07({ strict: false, allErrors: true })) as AjvDraft07).compile(SCHEMA);

type EnvVar = { name: string; isSecret?: boolean; default?: string };
type ServerJson = { name: string; description: string; version: string; packages: Array<Record<string, unknown>> };

function modelOf(spec: string, features?: string[]): Model {
  const built = buildModel(join(ROOT, "specs", spec), features ? { features } : {});
  expect(built.model, JSON.stringify(built.diagnostics)).toBeDefined();
  return built.model as Model;
}

/** Every env var the upstream's security schemes name. */
function credentialEnvs(model: Model): string[] {
  return (model.server.upstream?.securitySchemes ?? []).flatMap((s) =>
    s.type === "oauth2" ? [s.clientIdEnv, s.clientSecretEnv] : [s.env],
  );
}

describe("server.json (MCP Registry, schema 2025-12-11)", () => {
  it("the vendored schema is the 2025-12-11 one server.json points at", () => {
    expect(SCHEMA.$id).toBe(REGISTRY_SCHEMA_URL);
  });

  for (const spec of SPECS) {
    it(`specs/${spec}: valid against the registry's schema, with package.json's version`, () => {
      const model = modelOf(spec);
      const doc = JSON.parse(renderServerJson(model)) as ServerJson;
      expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
      const pkg = JSON.parse(renderPackageJson(model));
      expect(doc.version).toBe(pkg.version);
      expect(doc.packages[0]).toMatchObject({ registryType: "npm", identifier: pkg.name, version: pkg.version });
      expect(doc.packages[0].transport).toEqual({ type: "stdio" });
      expect(pkg.mcpName).toBe(doc.name);
    });
  }

  it("names every credential env var of a spec with auth as a secret, and the flags' twins as not", () => {
    // With the redis feature, whose MCP_SESSION_STORE is checked below.
    const specsWithAuth = SPECS.map((spec) => modelOf(spec, ["redis"])).filter((m) => credentialEnvs(m).length > 0);
    expect(specsWithAuth.length).toBeGreaterThanOrEqual(3); // petstore, weather, tasks
    for (const model of specsWithAuth) {
      const vars = JSON.parse(renderServerJson(model)).packages[0].environmentVariables as EnvVar[];
      for (const name of credentialEnvs(model)) expect(vars.find((v) => v.name === name)?.isSecret).toBe(true);
      expect(vars.find((v) => v.name === "MCP_READ_ONLY")).toMatchObject({ isSecret: false, default: "false" });
      expect(vars.find((v) => v.name === "MCP_HTTP_TOKEN")?.isSecret).toBe(true);
      // Its URL holds the Redis password (redis://user:pass@host), issue 27.
      expect(vars.find((v) => v.name === "MCP_SESSION_STORE")?.isSecret).toBe(true);
    }
    const petstore = JSON.parse(renderServerJson(modelOf("petstore.yaml"))).packages[0].environmentVariables;
    expect(petstore.find((v: EnvVar) => v.name === "PETSTORE_API_KEY")).toMatchObject({ isSecret: true });
    expect(petstore.find((v: EnvVar) => v.name === "PETSTORE_SERVER_REGION")).toMatchObject({ default: "eu" });
  });

  it("cuts the description to the registry's 100 characters and uses the spec's registry name", () => {
    const model = modelOf("weather.yaml");
    model.server.description = `${"A very long description of a weather service. ".repeat(5)}`;
    model.server.registryName = "io.github.alice/weather";
    const doc = JSON.parse(renderServerJson(model)) as ServerJson;
    expect([...doc.description].length).toBeLessThanOrEqual(100);
    expect(doc.description).toMatch(/^A very long description .*…$/);
    expect(doc.name).toBe("io.github.alice/weather");
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.parse(renderMcpbManifest(model)).author).toEqual({ name: "alice" });
  });

  it("the validator is live: it refuses a 101-character description and a name without a namespace", () => {
    const doc = JSON.parse(renderServerJson(modelOf("petstore.yaml"))) as ServerJson;
    expect(validate({ ...doc, description: "x".repeat(101) })).toBe(false);
    expect(validate({ ...doc, name: "petstore-mcp" })).toBe(false);
  });
});

describe("generate", () => {
  it("a private package (package: { private: true }) gets no publish guard; a public one without a registry name does", async () => {
    const dir = scratchDir("publish");
    const spec = join(dir, "notes.yaml");
    const original = readFileSync(join(ROOT, "specs/notes.yaml"), "utf8");
    const withoutName = original.replace(/^ {2}registryName: .*\n/m, "");
    expect(withoutName).not.toBe(original);
    writeFileSync(spec, withoutName);
    expect((await generate(spec, join(dir, "public"))).diagnostics).toEqual([]);
    const scripts = (name: string) => JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8")).scripts;
    expect(scripts("public").prepublishOnly).toContain("REGISTRY_NAME_PLACEHOLDER");
    writeFileSync(spec, `${withoutName}package:\n  private: true\n`);
    const privateRun = await generate(spec, join(dir, "private"));
    expect(privateRun.diagnostics).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, "private/package.json"), "utf8")).private).toBe(true);
    expect(scripts("private").prepublishOnly).toBeUndefined();
  });

  // Issue 33 item 10: publishing advice goes to the command that publishes, not to every generate.
  it("without a registry name generate says nothing, npm publish stops with REGISTRY_NAME_PLACEHOLDER, and --check reports SERVER_JSON_VERSION_DRIFT", async () => {
    const dir = scratchDir("publish");
    const out = join(dir, "out");
    // Petstore without its info.x-mcp-registry-name.
    const spec = join(dir, "petstore.yaml");
    const original = readFileSync(join(ROOT, "specs/petstore.yaml"), "utf8");
    writeFileSync(spec, original.replace(/^ {2}x-mcp-registry-name: .*\n/m, ""));
    const first = await generate(spec, out);
    expect(first.diagnostics).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, "server.json"), "utf8")).name).toBe("io.github.OWNER/petstore-mcp");
    const publish = spawnSync("npm", ["run", "--silent", "prepublishOnly"], { cwd: out, encoding: "utf8" });
    expect(publish.status).toBe(1);
    expect(publish.stderr.trim()).toBe(
      "npm publish stopped: server.json names this server io.github.OWNER/petstore-mcp, a placeholder the MCP Registry refuses (REGISTRY_NAME_PLACEHOLDER). Set info.x-mcp-registry-name in the OpenAPI document to a name you own, such as io.github.YOUR-GITHUB-USER/petstore-mcp, and run mcpgen generate again.",
    );
    const clean = await generate(spec, out, { check: true });
    expect(clean.diagnostics).toEqual([]);
    // With a name, no guard.
    writeFileSync(spec, original);
    await generate(spec, out);
    expect(JSON.parse(readFileSync(join(out, "package.json"), "utf8")).scripts.prepublishOnly).toBeUndefined();
    writeFileSync(spec, original.replace(/^ {2}x-mcp-registry-name: .*\n/m, ""));
    await generate(spec, out);

    // `npm version patch` bumps package.json alone.
    const pkgFile = join(out, "package.json");
    writeFileSync(pkgFile, readFileSync(pkgFile, "utf8").replace('"version": "1.0.0"', '"version": "1.0.1"'));
    const drift = await generate(spec, out, { check: true });
    const errors = drift.diagnostics.filter((d) => d.code === "SERVER_JSON_VERSION_DRIFT");
    expect(errors.map((d) => [d.severity, d.pointer])).toEqual([
      ["error", "/packages/0/version"],
      ["error", "/version"],
    ]);
    expect(errors[0].message).toContain('"1.0.0" but package.json\'s is "1.0.1"');
  });

  it("takes the registry name from the spec (server.registryName, info.x-mcp-registry-name); no warning", async () => {
    const petstore = JSON.parse(renderServerJson(modelOf("petstore.yaml")));
    expect(petstore.name).toBe("io.github.mcpgen-examples/petstore");
    const dir = scratchDir("publish-named");
    const spec = join(dir, "spec.yaml");
    writeFileSync(spec, "server:\n  name: hello\n  version: 2.3.4\n  registryName: io.github.alice/hello\n");
    const result = await generate(spec, join(dir, "out"));
    expect(result.diagnostics).toEqual([]);
    const doc = JSON.parse(readFileSync(join(dir, "out/server.json"), "utf8")) as ServerJson;
    expect(doc).toMatchObject({ name: "io.github.alice/hello", version: "2.3.4" });
    expect(JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8")).mcpName).toBe("io.github.alice/hello");
  });
});

describe("a registry name that is no reverse-DNS server name", () => {
  it("is an error at its pointer, in an OpenAPI document and in the spec language", () => {
    const dir = scratchDir("publish-bad-name");
    const openapi = join(dir, "api.yaml");
    writeFileSync(
      openapi,
      "openapi: 3.0.3\ninfo: { title: Bad, version: 1.0.0, x-mcp-registry-name: 'not a name' }\npaths: {}\n",
    );
    const fromOpenApi = buildModel(openapi).diagnostics.filter((d) => d.severity === "error");
    expect(fromOpenApi.map((d) => [d.code, d.pointer, d.line])).toEqual([
      ["OPENAPI_REGISTRY_NAME_INVALID", "/info/x-mcp-registry-name", 2],
    ]);
    const spec = join(dir, "spec.yaml");
    writeFileSync(spec, "server:\n  name: bad\n  version: 1.0.0\n  registryName: no-slash\n");
    const fromSpec = buildModel(spec).diagnostics.filter((d) => d.severity === "error");
    expect(fromSpec.map((d) => d.pointer)).toEqual(["/server/registryName"]);
  });
});

describe("MCPB manifest (manifest.json)", () => {
  it("runs the entry point with node and maps each secret and setting from user_config into the env", () => {
    const model = modelOf("petstore.yaml");
    const manifest = JSON.parse(renderMcpbManifest(model));
    expect(manifest).toMatchObject({ manifest_version: "0.3", name: "petstore-mcp", version: "1.0.0" });
    expect(manifest.server).toMatchObject({
      type: "node",
      entry_point: BUNDLE_ENTRY_POINT,
      mcp_config: { command: "node", args: [`\${__dirname}/${BUNDLE_ENTRY_POINT}`] },
    });
    const env = manifest.server.mcp_config.env as Record<string, string>;
    expect(manifest.user_config.petstore_api_key).toMatchObject({ type: "string", sensitive: true, required: true });
    expect(env.PETSTORE_API_KEY).toBe(`\${user_config.petstore_api_key}`);
    expect(manifest.user_config.mcp_base_url).toMatchObject({ type: "string", default: "" });
    expect(env.MCP_BASE_URL).toBe(`\${user_config.mcp_base_url}`);
    // Every entry of user_config reaches the server, and every non-secret one has a default.
    for (const [key, option] of Object.entries(manifest.user_config) as Array<[string, Record<string, unknown>]>) {
      expect(Object.values(env)).toContain(`\${user_config.${key}}`);
      if (option.sensitive !== true) expect(option.default).toBeDefined();
    }
  });
});
