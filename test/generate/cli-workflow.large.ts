/**
 * The regeneration workflow over the real CLI, run the way the README shows it: from the project
 * folder with a relative `--out` (issue 12). Handler checks that always run, ownership of the output
 * folder, renames, and the CI outputs (--format json, --summary-md).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "./support.ts";

function mcpgen(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const greeter = (
  property: string,
) => `server: { name: greeter, version: 1.0.0, registryName: io.github.mcpgen-examples/greeter }
tools:
  - name: greet
    inputSchema: { type: object, properties: { ${property}: { type: string } }, required: [${property}] }
    outputSchema: { type: object, properties: { greeting: { type: string } }, required: [greeting] }
`;

const implementation = `import type { SpecContext, ToolResult } from "../../../runtime/handler-api.ts";
import type { GreetInput, GreetOutput } from "../../types.ts";

export default async function greet(args: GreetInput, _ctx: SpecContext): Promise<ToolResult<GreetOutput>> {
  return { structuredContent: { greeting: \`Hello, \${args.name}!\` } };
}
`;

const HANDLER = "pkg/src/handlers/tools/greet.ts";

describe("handler type errors with a relative --out (defect 1)", { timeout: 120_000 }, () => {
  const cwd = scratchDir("workflow-handlers");
  const typeError = (text: string) =>
    text.match(/^pkg\/src\/handlers\/tools\/greet\.ts:5:\d+: warning HANDLER_TYPE_ERROR/m);

  it("reports a handler the spec change broke, at its relative path", () => {
    writeFileSync(join(cwd, "spec.yaml"), greeter("name"));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    writeFileSync(join(cwd, HANDLER), implementation);
    writeFileSync(join(cwd, "spec.yaml"), greeter("who"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code).toBe(0);
    expect(typeError(run.stdout)).not.toBeNull();
    expect(run.stdout).toContain("TS2339: Property 'name' does not exist on type 'GreetInput'");
  });

  it("replays it on a no-change rerun, and --check fails on it (exit 1)", () => {
    const rerun = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(rerun.stderr).toMatch(/0 written/);
    expect(typeError(rerun.stdout)).not.toBeNull();
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect(check.code).toBe(1);
    expect(typeError(check.stdout)).not.toBeNull();
    expect(check.stderr).toContain(
      "pkg is up to date with spec.yaml, but 1 handler error (HANDLER_TYPE_ERROR) fails the check",
    );
  });

  it("--check type-checks handlers against the files it would write, before any generate", () => {
    writeFileSync(join(cwd, HANDLER), implementation.replaceAll("args.name", "args.who"));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check").code).toBe(0);
    writeFileSync(join(cwd, "spec.yaml"), greeter("name"));
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("TS2339: Property 'who' does not exist on type 'GreetInput'");
    expect(readFileSync(join(cwd, "pkg/src/types.ts"), "utf8")).toContain("who");
  });

  it("a fixed handler is clean on the next run (the fingerprint hashes the user's files)", () => {
    writeFileSync(join(cwd, "spec.yaml"), greeter("who"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect([run.code, run.stdout]).toEqual([0, ""]);
  });
});

describe("ownership of the output folder (defect 2)", { timeout: 120_000 }, () => {
  const api = (tools: number) =>
    `server: { name: big, version: 1.0.0, registryName: io.github.mcpgen-examples/big }\nupstream: { baseUrl: 'https://api.example.com' }\ntools:\n${Array.from(
      { length: tools },
      (_, n) => `  - { name: t${n}, inputSchema: { type: object }, http: { method: GET, path: /t${n} } }\n`,
    ).join("")}`;

  it("refuses a folder holding the user's own files, listing them, and writes nothing; --force overrides", () => {
    const cwd = scratchDir("workflow-own");
    writeFileSync(join(cwd, "spec.yaml"), api(1));
    mkdirSync(join(cwd, "pkg/src"), { recursive: true });
    writeFileSync(join(cwd, "pkg/package.json"), '{ "name": "mine" }\n');
    writeFileSync(join(cwd, "pkg/README.md"), "# mine\n");
    writeFileSync(join(cwd, "pkg/src/app.ts"), "export const mine = 1;\n");
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^pkg:1:1: error OUTPUT_NOT_OWNED: 'pkg' holds 3 files mcpgen did not write: /m);
    expect(run.stdout).toContain("README.md, package.json, src/app.ts");
    expect(readFileSync(join(cwd, "pkg/src/app.ts"), "utf8")).toBe("export const mine = 1;\n");
    expect(existsSync(join(cwd, "pkg/runtime"))).toBe(false);
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect([check.code, check.stdout]).toEqual([1, expect.stringContaining("OUTPUT_NOT_OWNED")]);
    const forced = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--force");
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, "pkg/src/app.ts"), "utf8")).toContain("Generated by mcpgen");
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
  });

  it("--out . beside the spec: the spec is the input, not a file in the way", () => {
    const cwd = scratchDir("workflow-here");
    writeFileSync(join(cwd, "spec.yaml"), api(1));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", ".");
    expect([run.code, run.stdout]).toEqual([0, ""]);
    expect(readFileSync(join(cwd, "spec.yaml"), "utf8")).toBe(api(1));
  });

  it("removes only files it wrote, naming each; the user's files in runtime/ and src/validators/ stay", () => {
    const cwd = scratchDir("workflow-remove");
    writeFileSync(join(cwd, "spec.yaml"), api(101));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    expect(existsSync(join(cwd, "pkg/src/validators/1.cjs"))).toBe(true);
    writeFileSync(join(cwd, "pkg/runtime/mine.ts"), "export const mine = 1;\n");
    writeFileSync(join(cwd, "pkg/src/validators/mine.js"), "module.exports = 1;\n");
    writeFileSync(join(cwd, "spec.yaml"), api(1));
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect(check.stdout.split("\n")).toContain("removed src/validators/1.cjs");
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/1 removed; dist\/: \d+ compiled\n {2}removed src\/validators\/1\.cjs\n/);
    expect(existsSync(join(cwd, "pkg/src/validators/1.cjs"))).toBe(false);
    expect(existsSync(join(cwd, "pkg/runtime/mine.ts"))).toBe(true);
    expect(existsSync(join(cwd, "pkg/src/validators/mine.js"))).toBe(true);
  });

  it("a package from an earlier mcpgen (no ownership record; even no .mcpgen at all) regenerates without --force", () => {
    const cwd = scratchDir("workflow-legacy");
    writeFileSync(join(cwd, "spec.yaml"), api(1));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    // As the previous version left it: a fingerprint but no files.json, and an older generated file.
    rmSync(join(cwd, "pkg/.mcpgen/files.json"));
    const types = join(cwd, "pkg/src/types.ts");
    writeFileSync(types, `${readFileSync(types, "utf8")}// older\n`);
    writeFileSync(join(cwd, "spec.yaml"), api(2));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    // A fresh clone of one: .mcpgen was git-ignored, so only the files' "Generated by mcpgen" header tells.
    rmSync(join(cwd, "pkg/.mcpgen"), { recursive: true });
    writeFileSync(types, `${readFileSync(types, "utf8")}// older\n`);
    writeFileSync(join(cwd, "spec.yaml"), api(3));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect([run.code, run.stdout]).toEqual([0, ""]);
    expect(readFileSync(types, "utf8")).not.toContain("// older");
  });
});

describe("unwritable output (defect 7)", { timeout: 120_000 }, () => {
  it("--out below /proc answers WRITE_FAILED at once instead of spinning", () => {
    const started = Date.now();
    const run = mcpgen(
      scratchDir("workflow-proc"),
      "generate",
      join(ROOT, "specs/weather.yaml"),
      "--out",
      "/proc/nope",
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^\/proc\/nope:1:1: error WRITE_FAILED: /m);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe("--check and handler reports (defect 8)", { timeout: 120_000 }, () => {
  it("says 'missing' for a deleted generated file", () => {
    const cwd = scratchDir("workflow-missing");
    writeFileSync(join(cwd, "spec.yaml"), greeter("name"));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    rmSync(join(cwd, "pkg/src/client.ts"));
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout.split("\n")).toContain("missing src/client.ts");
    expect(check.stdout).not.toContain("changed src/client.ts");
  });

  it("summarizes new handlers beyond 20, and flags only scaffolds as obsolete, never the user's helper", () => {
    const cwd = scratchDir("workflow-many");
    const tools = (n: number) =>
      `server: { name: many, version: 1.0.0, registryName: io.github.mcpgen-examples/many }\ntools:\n${Array.from(
        { length: n },
        (_, i) => `  - { name: h${i}, inputSchema: { type: object } }\n`,
      ).join("")}`;
    writeFileSync(join(cwd, "spec.yaml"), tools(25));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.code).toBe(0);
    expect(run.stderr.match(/new handler to write/g)).toHaveLength(20);
    expect(run.stderr).toContain("... and 5 more new handlers to write");
    writeFileSync(join(cwd, "pkg/src/handlers/helper.ts"), "export const shared = 1;\n");
    writeFileSync(join(cwd, "spec.yaml"), tools(24));
    const next = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(next.stdout.match(/HANDLER_OBSOLETE/g)).toHaveLength(1);
    expect(next.stdout).toMatch(/^pkg\/src\/handlers\/tools\/h24\.ts:1:1: warning HANDLER_OBSOLETE: /m);
    expect(next.stdout).not.toContain("helper.ts");
  });
});

describe("the credentials hook in generate's report", { timeout: 120_000 }, () => {
  it("is named as a file to edit that works as written, not as a handler still to write", () => {
    const cwd = scratchDir("workflow-credentials");
    const run = mcpgen(cwd, "generate", join(ROOT, "specs/weather.yaml"), "--out", "pkg");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "new file, yours to edit for per-user upstream credentials (works as written): src/credentials.ts",
    );
    expect(run.stderr).not.toContain("new handler to write: src/credentials.ts");
    expect(run.stderr.match(/new handler to write/g)).toHaveLength(3);
  });
});

describe("rename without losing code", { timeout: 120_000 }, () => {
  it("moves the handler of renamedFrom to the new name, shows '> tool old -> new', and never overwrites", () => {
    const cwd = scratchDir("workflow-rename");
    writeFileSync(join(cwd, "spec.yaml"), greeter("name"));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    writeFileSync(join(cwd, HANDLER), implementation);
    writeFileSync(
      join(cwd, "spec.yaml"),
      greeter("name").replace("  - name: greet\n", "  - name: welcome\n    renamedFrom: greet\n"),
    );
    const check = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check");
    expect(check.stdout.split("\n")).toContain("moved src/handlers/tools/greet.ts -> src/handlers/tools/welcome.ts");
    expect(check.stderr).toContain("> tool greet -> welcome");
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(run.stderr).toContain("> tool greet -> welcome");
    expect(run.stderr).not.toContain("new handler to write");
    expect(run.stderr).not.toMatch(/[+-] tool/);
    expect(readFileSync(join(cwd, "pkg/src/handlers/tools/welcome.ts"), "utf8")).toBe(implementation);
    expect(existsSync(join(cwd, HANDLER))).toBe(false);
    // The moved file still names the old types: the type-check says where to update it.
    expect(run.stdout).toContain("HANDLER_TYPE_ERROR");
    // The old file back (say, from git) next to the new one: nothing moves over the new one.
    writeFileSync(join(cwd, HANDLER), "export {};\n");
    mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg");
    expect(readFileSync(join(cwd, "pkg/src/handlers/tools/welcome.ts"), "utf8")).toBe(implementation);
    expect(readFileSync(join(cwd, HANDLER), "utf8")).toBe("export {};\n");
  });

  it("renamedFrom naming a tool that still exists is an error; OpenAPI x-mcp-renamed-from renames too", () => {
    const cwd = scratchDir("workflow-rename-bad");
    writeFileSync(
      join(cwd, "both.yaml"),
      `${greeter("name")}  - { name: hello, renamedFrom: greet, inputSchema: { type: object } }\n`,
    );
    const bad = mcpgen(cwd, "validate", "both.yaml");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^both\.yaml:6:\d+: error RENAMED_FROM_EXISTS: /m);
    const doc = (name: string, extra: object) =>
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1.0.0" },
        servers: [{ url: "https://api.example.com" }],
        paths: { "/a": { get: { operationId: name, ...extra, responses: { 200: { description: "ok" } } } } },
      });
    writeFileSync(join(cwd, "api.json"), doc("getA", {}));
    expect(mcpgen(cwd, "generate", "api.json", "--out", "api").code).toBe(0);
    writeFileSync(join(cwd, "api.json"), doc("fetchA", { "x-mcp-renamed-from": "getA" }));
    expect(mcpgen(cwd, "generate", "api.json", "--out", "api").stderr).toContain("> tool getA -> fetchA");
  });
});

describe("CI outputs", { timeout: 120_000 }, () => {
  it("--format json prints one object with the files, the surface diff and the diagnostics", () => {
    const cwd = scratchDir("workflow-json");
    writeFileSync(join(cwd, "spec.yaml"), greeter("name"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--format", "json");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ out: "pkg", check: false, exitCode: 0, generated: true, removed: [] });
    expect(report.written).toContain("src/types.ts");
    expect(report.created).toEqual(["src/handlers/tools/greet.ts"]);
    expect(report.surface).toEqual([{ change: "+", kind: "tool", name: "greet" }]);
    expect(report.diagnostics).toEqual([]);
    const again = JSON.parse(
      mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--format", "json", "--check").stdout,
    );
    expect(again).toMatchObject({ check: true, upToDate: true, written: [], surface: [] });
    expect(again.unchanged).toContain("src/types.ts");
  });

  it("--summary-md writes the surface change as Markdown, every name escaped", () => {
    const cwd = scratchDir("workflow-md");
    const spec = (extra: string) =>
      `server: { name: md, version: 1.0.0, registryName: io.github.mcpgen-examples/md }\nresources:\n  - { uri: 'x://a', name: a, text: hi }\n${extra}`;
    writeFileSync(join(cwd, "spec.yaml"), spec(""));
    expect(mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg").code).toBe(0);
    writeFileSync(join(cwd, "spec.yaml"), spec("  - { uri: 'x://b/*x*_[l](y)', name: b, text: hi }\n"));
    const run = mcpgen(cwd, "generate", "spec.yaml", "--out", "pkg", "--check", "--summary-md", "summary.md");
    expect(run.code).toBe(1);
    const md = readFileSync(join(cwd, "summary.md"), "utf8");
    expect(md).toContain("| change | kind | name |");
    expect(md).toContain("| added | resource | `x://b/*x*_[l](y)` |");
    expect(md.split("\n").filter((line) => line.startsWith("| added"))).toHaveLength(1);
  });
});
