/**
 * How diagnostics read on a terminal (issue 33 item 10): a warning code repeated many times shows its first
 * few and a count, its hint once; errors are all listed; --verbose lists everything; a position deep in a
 * one-line (minified) JSON document also names the JSON pointer.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Code } from "../../generator/diagnostics/catalog.ts";
import { type Diagnostic, formatText } from "../../generator/diagnostics/diagnostic.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const diagnostic = (code: Code, severity: Diagnostic["severity"], line: number, col = 3): Diagnostic => ({
  code,
  severity,
  message: `${code} at ${line}`,
  file: "api.json",
  line,
  col,
  pointer: `/paths/~1p${line}`,
  hint: `fix ${code}`,
});

describe("formatText", () => {
  const list = [
    ...[1, 2, 3, 4, 5, 6].map((line) => diagnostic("OPENAPI_DESCRIPTION_CUT", "warning", line)),
    ...[7, 8, 9, 10].map((line) => diagnostic("NAME_INVALID", "error", line)),
    diagnostic("MANY_TOOLS", "warning", 11),
  ];

  it("counts a warning code after its first 3, shows its hint once, and lists every error", () => {
    expect(formatText(list).split("\n")).toEqual([
      "api.json:1:3: warning OPENAPI_DESCRIPTION_CUT: OPENAPI_DESCRIPTION_CUT at 1",
      "    hint: fix OPENAPI_DESCRIPTION_CUT",
      "api.json:2:3: warning OPENAPI_DESCRIPTION_CUT: OPENAPI_DESCRIPTION_CUT at 2",
      "api.json:3:3: warning OPENAPI_DESCRIPTION_CUT: OPENAPI_DESCRIPTION_CUT at 3",
      "api.json:7:3: error NAME_INVALID: NAME_INVALID at 7",
      "    hint: fix NAME_INVALID",
      "api.json:8:3: error NAME_INVALID: NAME_INVALID at 8",
      "api.json:9:3: error NAME_INVALID: NAME_INVALID at 9",
      "api.json:10:3: error NAME_INVALID: NAME_INVALID at 10",
      "api.json:11:3: warning MANY_TOOLS: MANY_TOOLS at 11",
      "    hint: fix MANY_TOOLS",
      "... and 3 more OPENAPI_DESCRIPTION_CUT warnings (--verbose lists every one)",
    ]);
  });

  it("verbose: every diagnostic with its hint", () => {
    const lines = formatText(list, { verbose: true }).split("\n");
    expect(lines).toHaveLength(list.length * 2);
    expect(lines.filter((line) => line.startsWith("    hint:"))).toHaveLength(list.length);
  });

  it("a position far along line 1 (minified JSON) names the JSON pointer too", () => {
    expect(formatText([diagnostic("OPENAPI_DESCRIPTION_CUT", "warning", 1, 565583)])).toContain(
      "api.json:1:565583: warning OPENAPI_DESCRIPTION_CUT: OPENAPI_DESCRIPTION_CUT at 1 (at /paths/~1p1)",
    );
  });
});

describe("the command line", () => {
  it("validate and generate group by default and list everything with --verbose", () => {
    const dir = scratchDir("diagnostic-text");
    // Five operations whose descriptions are cut: five warnings of one code.
    const long = "word ".repeat(300);
    const paths = Object.fromEntries(
      [1, 2, 3, 4, 5].map((i) => [
        `/p${i}`,
        { get: { operationId: `op${i}`, description: long, responses: { "200": { description: "ok" } } } },
      ]),
    );
    const file = join(dir, "api.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1", "x-mcp-registry-name": "io.github.example/t" },
        servers: [{ url: "https://example.com" }],
        paths,
      }),
    );
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, "bin/mcpgen.js"), ...args], { cwd: dir, encoding: "utf8" });
    const cut = (text: string) => text.split("\n").filter((line) => line.includes("warning OPENAPI_DESCRIPTION_CUT"));
    const grouped = cli("validate", "api.json");
    expect(cut(grouped.stdout)).toHaveLength(3);
    expect(grouped.stdout).toContain("... and 2 more OPENAPI_DESCRIPTION_CUT warnings (--verbose lists every one)");
    expect(cut(grouped.stdout)[2]).toMatch(
      /^api\.json:1:\d{4}: warning OPENAPI_DESCRIPTION_CUT: .* \(at \/paths\/~1p3\/get\/description\)$/,
    );
    expect(cut(cli("validate", "api.json", "--verbose").stdout)).toHaveLength(5);
    expect(cut(cli("generate", "api.json", "--out", "pkg").stdout)).toHaveLength(3);
    expect(cut(cli("generate", "api.json", "--out", "pkg", "--verbose").stdout)).toHaveLength(5);
  });
});
