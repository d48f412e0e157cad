/**
 * What `mcpgen generate` says about tools/list's token cost, as a real process: one line in each mode
 * (also when the fingerprint short-cuts the run), the same figures as fields with --format json, nothing
 * for a package without tools; and the MANY_TOOLS warning over 128 tools, which never fails the run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dynamicCost } from "../../generator/render/token-cost.ts";
import { toolCountRules } from "../../generator/rules/tool-count.ts";
import { model, tool } from "../render/model.ts";
import { ROOT } from "./support.ts";

function mcpgen(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "mcpgen-tools-cost-"));
// A registry name, so the only warning is the one under test.
const head = "server: { name: demo, version: 1.0.0, registryName: io.github.mcpgen-examples/demo }\n";
const manyTools = (count: number) =>
  `${head}tools:\n${Array.from({ length: count }, (_, i) => `  - { name: t${i}, inputSchema: { type: object } }\n`).join("")}`;

describe("generate's tools/list cost, and MANY_TOOLS", () => {
  // 129 trivial tools: one more than clients accept, so one run shows the cost line and the warning.
  const spec = join(dir, "many.yaml");
  const out = join(dir, "many");
  writeFileSync(spec, manyTools(129));
  const dynamic = dynamicCost();
  const line = /^tools\/list: 129 tools, ([\d,]+) tokens \(all\) \| 5 tools, ([\d,]+) tokens \(dynamic\)$/m;
  const tokens = (text: string) => Number(text.replace(/,/g, ""));

  it("one line on stderr in each mode (again when nothing changed), and a warning that does not fail the run", () => {
    const first = mcpgen("generate", spec, "--out", out);
    expect(first.code).toBe(0);
    const [, all, dyn] = first.stderr.match(line) ?? [];
    expect(tokens(all)).toBeGreaterThan(129 * 10);
    expect(tokens(dyn)).toBe(dynamic.tokens);
    expect(first.stdout).toContain(
      "warning MANY_TOOLS: the server has 129 tools, more than the 128 that clients such as VS Code Copilot and the OpenAI API accept",
    );
    expect(first.stdout).toContain("hint: Serve it with --mode dynamic");
    const again = mcpgen("generate", spec, "--out", out);
    expect(again.stderr).toContain("0 written");
    expect(again.stderr.match(line)?.[0]).toBe(first.stderr.match(line)?.[0]);
  }, 60_000);

  it("--format json: the figures as fields, per toolset too", () => {
    const run = mcpgen("generate", spec, "--out", out, "--format", "json");
    const report = JSON.parse(run.stdout);
    const all = report.toolsList.all.tokens;
    expect(report.toolsList).toEqual({
      all: { tools: 129, tokens: all },
      dynamic,
      toolsets: [{ name: "default", tools: 129, tokens: all }],
    });
    expect(report.diagnostics.map((d: { code: string }) => d.code)).toEqual(["MANY_TOOLS"]);
  }, 60_000);

  it("a package without tools: no line, toolsList null", () => {
    const none = join(dir, "none.yaml");
    writeFileSync(
      none,
      `${head}prompts:\n  - { name: hi, messages: [{ role: user, content: { type: text, text: hi } }] }\n`,
    );
    const json = mcpgen("generate", none, "--out", join(dir, "none"), "--format", "json");
    expect(JSON.parse(json.stdout).toolsList).toBeNull();
    const text = mcpgen("generate", none, "--out", join(dir, "none"));
    expect([text.code, text.stderr]).toEqual([0, expect.not.stringContaining("tools/list")]);
  }, 60_000);
});

describe("MANY_TOOLS", () => {
  it("the hint names the largest toolsets, largest first, and a --toolsets example", () => {
    const toolsets = ["issues", "repos", "repos", "actions", "repos", "issues"];
    const { server } = model({
      tools: Array.from({ length: 130 }, (_, i) => tool(`t${i}`, { toolset: toolsets[i % toolsets.length] })),
    });
    const found: Array<{ code: string; pointer: string; message: string; hint?: string }> = [];
    toolCountRules(server, (code, pointer, message, options) => found.push({ code, pointer, message, ...options }));
    expect(found).toEqual([
      {
        code: "MANY_TOOLS",
        pointer: "/tools",
        message:
          "the server has 130 tools, more than the 128 that clients such as VS Code Copilot and the OpenAI API accept",
        hint: "Serve it with --mode dynamic (five tools that search, describe and call the others), or serve only some toolsets with --toolsets (the largest: repos 65 tools, issues 43 tools, actions 22 tools; e.g. --toolsets repos,issues).",
      },
    ]);
  });
});
