/**
 * Features chosen at generate time (issue 28 §3): `--features` (or the spec's `features:`, or the config's)
 * decides which runtime/features/ modules src/app.ts imports, so a package carries only their runtime files
 * and libraries, documents only their flags, and a flag of a feature it lacks exits 2 naming the feature.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURE_MODULES } from "../../generator/normalize/features.ts";
import { mcpgen, NO_TRACE } from "../cli/run.ts";
import { ROOT, scratchDir } from "./support.ts";

const WEATHER = join(ROOT, "specs/weather.yaml");
const HEAVY = ["ioredis", "prom-client", "quickjs-emscripten", "minisearch", "stemmer", "gpt-tokenizer"];

function generated(...args: string[]): string {
  const out = scratchDir("features");
  const run = mcpgen(ROOT, "generate", WEATHER, "--out", out, ...args);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return out;
}

const serve = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(dir, "dist/server.js"), ...args], { encoding: "utf8", timeout: 20_000, input: "" });

describe("mcpgen generate --features", () => {
  it("none: the core alone, without any feature's files, libraries, docs or variables", () => {
    const dir = generated("--features", "none");
    expect(existsSync(join(dir, "runtime/features"))).toBe(false);
    expect(existsSync(join(dir, "runtime/features/code/code-mode.ts"))).toBe(false);
    expect(existsSync(join(dir, "runtime/features/redis/redis-sessions.ts"))).toBe(false);
    expect(existsSync(join(dir, "runtime/features/budget/o200k-ranks.ts"))).toBe(false);
    const deps = Object.keys(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies);
    for (const name of HEAVY) expect(deps).not.toContain(name);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).not.toContain("### Authorization (OAuth)");
    expect(readme).toContain("Generated without these runtime features: `dynamic`");
    const serverJson = readFileSync(join(dir, "server.json"), "utf8");
    for (const name of [
      "MCP_AUTH_ISSUER",
      "MCP_SESSION_STORE",
      "MCP_METRICS",
      "MCP_CODE_TIMEOUT",
      "MCP_MAX_RESPONSE_TOKENS",
    ])
      expect(serverJson).not.toContain(name);
    expect(serverJson).toContain("MCP_BASE_URL");
    const variables = JSON.parse(serverJson).packages[0].environmentVariables as { name: string; choices?: string[] }[];
    expect(variables.find((v) => v.name === "MCP_MODE")?.choices).toEqual(["all"]);

    for (const [args, flag, feature] of [
      [["--mode", "code"], "--mode code", "code"],
      [["--mode", "dynamic"], "--mode dynamic", "dynamic"],
      [["--http", "--port", "0", "--session-store", "redis://127.0.0.1:1/0"], "--session-store", "redis"],
      [["--http", "--port", "0", "--metrics"], "--metrics", "metrics"],
      [["--http", "--port", "0", "--auth-issuer", "https://as.example/"], "--auth-issuer", "oauth"],
    ] as const) {
      const run = serve(dir, ...args);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.trim()).toBe(
        `${flag} needs the '${feature}' feature, which this package was generated without: add it to the spec's features: list, or to mcpgen generate's --features, and generate again`,
      );
      expect(run.stderr).not.toMatch(NO_TRACE);
    }
  }, 120_000);

  it("a subset: only those modules are imported; the flag wins over the spec's features", () => {
    const spec = join(scratchDir("features-spec"), "weather.yaml");
    writeFileSync(spec, `features: [code, redis]\n${readFileSync(WEATHER, "utf8")}`);
    const fromSpec = scratchDir("features");
    const run = mcpgen(ROOT, "generate", spec, "--out", fromSpec);
    expect(run.code, run.stderr).toBe(0);
    const imports = (dir: string) =>
      [
        ...readFileSync(join(dir, "src/app.ts"), "utf8").matchAll(
          /from "\.\.\/runtime\/features\/([\w-]+)\/feature\.ts"/g,
        ),
      ].map((m) => m[1]);
    expect(imports(fromSpec)).toEqual(["code", "redis"]);
    const flag = scratchDir("features");
    expect(mcpgen(ROOT, "generate", spec, "--out", flag, "--features", "dynamic").code).toBe(0);
    expect(imports(flag)).toEqual(["dynamic"]);
    expect(imports(generated("--features", "all"))).toEqual([
      "apps",
      "budget",
      "code",
      "dynamic",
      "metrics",
      "oauth",
      "otel",
      "redis",
      "tasks",
      "token-exchange",
      "upstream-oauth",
    ]);
    // token-exchange works on the token oauth validated: asking for it brings oauth.
    const exchange = scratchDir("features");
    expect(mcpgen(ROOT, "generate", WEATHER, "--out", exchange, "--features", "token-exchange").code).toBe(0);
    expect(imports(exchange)).toEqual(["oauth", "token-exchange"]);
  }, 120_000);

  it("an unknown name is a usage error naming the closest, in the flag and in the spec", () => {
    const run = mcpgen(ROOT, "generate", WEATHER, "--out", scratchDir("features"), "--features", "dynamik");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--features: unknown feature 'dynamik' (did you mean 'dynamic'?)");
    const spec = join(scratchDir("features-spec"), "weather.yaml");
    writeFileSync(spec, `features: [redis, postgres]\n${readFileSync(WEATHER, "utf8")}`);
    const bad = mcpgen(ROOT, "validate", spec);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/weather\.yaml:1:\d+: error \w+: .*features/);
    expect(bad.stdout + bad.stderr).not.toMatch(NO_TRACE);
  }, 60_000);

  it("a config file's features: applied per entry, and checked with a pointer", () => {
    const dir = scratchDir("features-config");
    writeFileSync(join(dir, "weather.yaml"), readFileSync(WEATHER, "utf8"));
    writeFileSync(
      join(dir, "mcpgen.config.json"),
      JSON.stringify({ input: "weather.yaml", output: "pkg", features: ["metrics"] }),
    );
    const run = mcpgen(dir, "generate");
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(readFileSync(join(dir, "pkg/src/app.ts"), "utf8")).toContain(
      'from "../runtime/features/metrics/feature.ts"',
    );
    writeFileSync(
      join(dir, "mcpgen.config.json"),
      JSON.stringify({ input: "weather.yaml", output: "pkg", features: ["metric"] }),
    );
    const bad = mcpgen(dir, "generate");
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toMatch(/unknown feature 'metric' \(did you mean 'metrics'\?\)/);
    expect(bad.stdout + bad.stderr).not.toMatch(NO_TRACE);
  }, 60_000);

  it("warns where a handler imports a runtime module other than handler-api.ts (HANDLER_RUNTIME_IMPORT)", () => {
    const dir = generated("--features", "none");
    const fresh = mcpgen(ROOT, "generate", WEATHER, "--out", dir, "--features", "none");
    expect(fresh.stdout).not.toContain("HANDLER_RUNTIME_IMPORT");
    const handler = join(dir, "src/handlers/tools/convert_temperature.ts");
    const source = readFileSync(handler, "utf8");
    expect(source).toContain('from "../../../runtime/handler-api.ts"');
    writeFileSync(
      handler,
      `// mine\nimport type { McpServer } from "../../../runtime/server/server.ts";\n${source}\nexport type S = McpServer;\n`,
    );
    const run = mcpgen(ROOT, "generate", WEATHER, "--out", dir, "--features", "none");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /src\/handlers\/tools\/convert_temperature\.ts:2:\d+: warning HANDLER_RUNTIME_IMPORT: imports '\.\.\/\.\.\/\.\.\/runtime\/server\/server\.ts'/,
    );
    expect(run.stdout).toContain("import what the handler needs from '../../../runtime/handler-api.ts'");
  }, 60_000);

  it("mcpgen explain features lists every feature", () => {
    const run = mcpgen(ROOT, "explain", "features");
    expect(run.code).toBe(0);
    // Each line starts with the feature's flag, or, for one without flags (apps), with what it serves.
    for (const { name } of FEATURE_MODULES) expect(run.stdout).toMatch(new RegExp(`^  ${name} +(--|ui://)`, "m"));
  });
});

/**
 * Each feature against a package generated with it and one without it: with it, its folder is copied, its
 * flags are in --help and its env twins in server.json; without it, each of its flags exits 2 naming it.
 */
describe("each feature, with and without it", () => {
  let without: string;
  beforeAll(() => {
    without = generated("--features", "none");
  });
  for (const feature of FEATURE_MODULES) {
    it(`${feature.name}`, () => {
      const dir = generated("--features", feature.name);
      expect(existsSync(join(dir, "runtime/features", feature.file))).toBe(true);
      expect(existsSync(join(without, "runtime/features", feature.file))).toBe(false);
      const help = serve(dir, "--help");
      expect(help.status).toBe(0);
      const serverJson = readFileSync(join(dir, "server.json"), "utf8");
      for (const flag of feature.flags?.flags ?? []) {
        if (flag.flag) expect(help.stderr).toContain(`--${flag.flag}`);
        if (flag.env && !flag.upstream) expect(serverJson).toContain(flag.env);
        if (!flag.flag) continue;
        const args = flag.kind === "boolean" ? [`--${flag.flag}`] : [`--${flag.flag}`, "x"];
        const run = serve(without, "--http", ...args);
        expect(run.status, `${flag.flag}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(`--${flag.flag} needs the '${feature.name}' feature`);
      }
      if (feature.mode) {
        expect(help.stderr).toMatch(new RegExp(`--mode all\\|${feature.name} `));
        const run = serve(without, "--mode", feature.name);
        expect(run.stderr).toContain(`--mode ${feature.name} needs the '${feature.name}' feature`);
      }
      expect(serve(without, "--help").stderr).not.toContain(feature.flags?.title ?? "--mode all|");
    }, 120_000);
  }
});
