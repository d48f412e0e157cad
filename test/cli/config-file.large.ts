/** Issue 12, "A config file": mcpgen.config.{ts,mjs,json,yaml}, read by generate and validate without arguments. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, NO_TRACE, ROOT, tempDir } from "./run.ts";

/** A project folder with a spec-language spec and an OpenAPI document. */
function project(name: string): string {
  const dir = tempDir(`config-${name}`);
  copyFileSync(join(ROOT, "specs/notes.yaml"), join(dir, "notes.yaml"));
  mkdirSync(join(dir, "api"));
  copyFileSync(join(ROOT, "specs/petstore.yaml"), join(dir, "api/petstore.yaml"));
  return dir;
}

const TWO_OUTPUTS = `import { defineConfig } from "mcpgen";

// Two packages from one config: a spec-language spec and an OpenAPI document.
export default defineConfig([
  { input: "notes.yaml", output: "out/notes" },
  {
    input: "api/petstore.yaml",
    output: "out/pets",
    openapi: { exclude: ["method:DELETE"], maxDescriptionLength: 200 },
  },
]);
`;

function toolNames(dir: string): string[] {
  const catalog = JSON.parse(readFileSync(join(dir, "src/catalog.json"), "utf8"));
  return catalog.tools.map((tool: { name: string }) => tool.name);
}

describe("mcpgen.config.ts", () => {
  it("generate with no arguments writes every output; --check and validate read it too", () => {
    const dir = project("ts");
    writeFileSync(join(dir, "mcpgen.config.ts"), TWO_OUTPUTS);
    const run = mcpgen(dir, "generate");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("out/notes: ");
    expect(run.stderr).toContain("out/pets: ");
    expect(existsSync(join(dir, "out/notes/src/server.ts"))).toBe(true);
    // openapi.exclude applied: the petstore's DELETE operation is not a tool.
    expect(toolNames(join(dir, "out/pets"))).not.toContain("deletePet");
    expect(toolNames(join(dir, "out/pets"))).toContain("listPets");

    const check = mcpgen(dir, "generate", "--check");
    expect(check.code).toBe(0);
    expect(check.stderr).toContain("out/pets is up to date with api/petstore.yaml");
    const validate = mcpgen(dir, "validate");
    expect([validate.code, validate.stderr]).toEqual([0, "2 files checked: 0 errors, 0 warnings\n"]);
  });

  it("--config-file names another config; .mjs works as an ES module", () => {
    const dir = project("mjs");
    writeFileSync(
      join(dir, "other.mjs"),
      'import { defineConfig } from "mcpgen";\nexport default defineConfig({ input: "notes.yaml", output: "pkg" });\n',
    );
    const run = mcpgen(dir, "generate", "--config-file", "other.mjs");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(existsSync(join(dir, "pkg/package.json"))).toBe(true);
  });

  it("--format json prints one JSON document with every entry's diagnostics", () => {
    const dir = project("json");
    writeFileSync(
      join(dir, "a.yaml"),
      "server: { name: a, version: '1.0', registryName: io.github.mcpgen-examples/a }\n",
    );
    writeFileSync(
      join(dir, "b.yaml"),
      "server: { name: b, version: '2.0', registryName: io.github.mcpgen-examples/b }\n",
    );
    writeFileSync(
      join(dir, "mcpgen.config.yaml"),
      "- { input: a.yaml, output: out-a }\n- { input: b.yaml, output: out-b }\n",
    );
    for (const command of ["generate", "validate"]) {
      const run = mcpgen(dir, command, "--format", "json");
      expect(run.code, run.stderr).toBe(0);
      const parsed = JSON.parse(run.stdout) as Array<{ code: string; file: string; diagnostics?: unknown }>;
      // validate prints one array of diagnostics; generate one report object per entry, each with its own.
      const diagnostics = (command === "generate" ? parsed.flatMap((report) => report.diagnostics) : parsed) as Array<{
        code: string;
        file: string;
      }>;
      expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
        ["SERVER_VERSION_NOT_SEMVER", "a.yaml"],
        ["SERVER_VERSION_NOT_SEMVER", "b.yaml"],
      ]);
    }
  });

  it("paths are relative to the config file, wherever mcpgen runs", () => {
    const dir = project("relative");
    writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify({ input: "notes.yaml", output: "pkg" }));
    const run = mcpgen(ROOT, "generate", "--config-file", join(dir, "mcpgen.config.json"));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(existsSync(join(dir, "pkg/package.json"))).toBe(true);
  });

  it("the OpenAPI mapping file (--config, openapi.mappingFile) keeps working", () => {
    const dir = project("mapping");
    writeFileSync(join(dir, "mapping.yaml"), "exclude: ['method:DELETE']\n");
    writeFileSync(
      join(dir, "mcpgen.config.yaml"),
      "input: api/petstore.yaml\noutput: pets\nopenapi:\n  mappingFile: mapping.yaml\n",
    );
    expect(mcpgen(dir, "generate").code).toBe(0);
    expect(toolNames(join(dir, "pets"))).not.toContain("deletePet");
    // The flag on the command line, without a config.
    expect(mcpgen(dir, "generate", "api/petstore.yaml", "--out", "flag", "--config", "mapping.yaml").code).toBe(0);
    expect(toolNames(join(dir, "flag"))).not.toContain("deletePet");
  });
});

describe("a JSON or YAML config from elsewhere (issue 27)", () => {
  it("reads and writes only inside its own folder unless --allow-paths-outside-config", () => {
    const dir = project("confined");
    const outside = tempDir("config-outside");
    const cases = [
      { input: "notes.yaml", output: join(outside, "pkg") },
      { input: join(outside, "..", "x.yaml"), output: "pkg" },
      { input: "notes.yaml", output: "../escaped" },
    ];
    for (const config of cases) {
      writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify(config));
      const run = mcpgen(dir, "generate");
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/error CONFIG_INVALID: '(input|output)' names '.+', outside the config file's folder/);
    }
    expect(existsSync(join(outside, "pkg"))).toBe(false);
    expect(existsSync(join(dir, "../escaped"))).toBe(false);
    // A link inside the folder that leads out counts as outside.
    symlinkSync(outside, join(dir, "linked"));
    writeFileSync(join(dir, "mcpgen.config.yaml"), "input: notes.yaml\noutput: linked/pkg\n");
    expect(mcpgen(dir, "generate", "--config-file", "mcpgen.config.yaml").code).toBe(1);
    expect(existsSync(join(outside, "pkg"))).toBe(false);
    // The person running mcpgen may allow it.
    writeFileSync(join(dir, "mcpgen.config.json"), JSON.stringify(cases[0]));
    const allowed = mcpgen(dir, "generate", "--allow-paths-outside-config");
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(existsSync(join(outside, "pkg/package.json"))).toBe(true);
  });

  it("cannot turn on remote $refs: that is --allow-remote-refs on the command line only", () => {
    const dir = project("remote");
    writeFileSync(
      join(dir, "mcpgen.config.json"),
      JSON.stringify({ input: "api/petstore.yaml", output: "pets", openapi: { allowRemoteRefs: true } }),
    );
    const run = mcpgen(dir, "generate");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error OPENAPI_CONFIG_INVALID: allowRemoteRefs is a command-line decision");
    writeFileSync(join(dir, "mapping.yaml"), "allowRemoteRefs: true\n");
    const mapping = mcpgen(dir, "generate", "api/petstore.yaml", "--out", "flag", "--config", "mapping.yaml");
    expect(mapping.code).toBe(1);
    expect(mapping.stdout).toContain("allowRemoteRefs is a command-line decision");
  });
});

describe("mistakes in a config are diagnostics with file:line:col", () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      "mcpgen.config.yaml",
      "input: notes.yaml\nouput: out\n",
      "mcpgen.config.yaml:2:1: error CONFIG_INVALID: unknown key 'ouput' in the config",
      /did you mean 'output'\?/,
    ],
    [
      "mcpgen.config.json",
      '{\n  "input": "notes.yaml",\n  "output": "out",\n}\n',
      "mcpgen.config.json:3:18: error JSON_SYNTAX: trailing comma before '}'",
      /JSON/,
    ],
    [
      "mcpgen.config.ts",
      'import { defineConfig } from "mcpgen";\nexport default defineConfig({\n  input: "api/petstore.yaml",\n  output: "out",\n  openapi: { include: ["tag:x"], maxTools: 0 },\n});\n',
      "mcpgen.config.ts:5:34: error OPENAPI_CONFIG_INVALID: maxTools must be an integer",
      /./,
    ],
    [
      "mcpgen.config.ts",
      'export default {\n  input: "notes.yaml",\n  output: 3 +,\n};\n',
      'mcpgen.config.ts:3:14: error CONFIG_LOAD_FAILED: cannot load the config file: Unexpected ","',
      /./,
    ],
    [
      "mcpgen.config.mjs",
      'const port = 1;\nthrow new Error("no config for you");\nexport default {};\n',
      "mcpgen.config.mjs:2:7: error CONFIG_LOAD_FAILED: cannot load the config file: no config for you",
      /./,
    ],
    [
      "mcpgen.config.ts",
      'export default [\n  { input: "notes.yaml", output: "a" },\n  { input: "notes.yaml" },\n];\n',
      "mcpgen.config.ts:3:3: error CONFIG_INVALID: missing 'output'",
      /add output/,
    ],
  ];
  it.each(cases)("%s: %s", (name, text, expected, hint) => {
    const dir = project("bad");
    writeFileSync(join(dir, name), text);
    const run = mcpgen(dir, "generate");
    expect(run.code).toBe(1);
    // Named as found in the current directory, at the start of its line.
    expect(
      run.stdout.split("\n").some((line) => line.startsWith(expected)),
      run.stdout,
    ).toBe(true);
    expect(run.stdout).toMatch(hint);
    expect(run.stdout + run.stderr).not.toMatch(NO_TRACE);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("openapi: settings for a spec-language input are refused (exit 2)", () => {
    const dir = project("unused");
    writeFileSync(join(dir, "mcpgen.config.yaml"), "input: notes.yaml\noutput: out\nopenapi: { include: ['tag:x'] }\n");
    const run = mcpgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      `mcpgen.config.yaml:3:1: error OPENAPI_OPTION_UNUSED: openapi: applies to OpenAPI documents only`,
    );
  });

  it("no spec and no config file: a usage error that points at init", () => {
    const run = mcpgen(tempDir("empty"), "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no spec given and no config file here");
    expect(run.stderr).toContain("mcpgen init");
  });
});
