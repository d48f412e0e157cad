/**
 * A generated server's flags are records: the core's (runtime/package/core-flags.ts) and each feature's
 * (runtime/features/<name>/flags.ts). The parser, --help, the env twins in server.json and the MCPB
 * manifest, docs/reference/server-flags.md and the package README tables are all made from them. These tests
 * hold the runtime's env reads and the rendered documents to that table, and the parser to its rules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_FLAG_SETS } from "../../../generator/normalize/features.ts";
import { flagTable } from "../../../generator/render/flag-docs.ts";
import { parseFlags, usageText } from "../../../runtime/package/flag-parser.ts";
import { flagsOf } from "../../../runtime/package/server-flags.ts";
import { serverFlagsPage } from "../../../scripts/docs.ts";
import { ROOT } from "../../generate/support.ts";

const SERVER_FLAGS = flagsOf(ALL_FLAG_SETS);
const ENV_NAMES = new Set(SERVER_FLAGS.flatMap((entry) => (entry.env ? [entry.env] : [])));

function runtimeSources(dir = join(ROOT, "runtime")): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return runtimeSources(path);
    return entry.name.endsWith(".ts") ? [{ file: path, text: readFileSync(path, "utf8") }] : [];
  });
}

describe("the flag table", () => {
  it("names every MCP_ variable the runtime mentions, and each flag and variable once", () => {
    const mentioned = new Set(runtimeSources().flatMap(({ text }) => text.match(/\bMCP_[A-Z][A-Z_]*[A-Z]\b/g) ?? []));
    expect([...mentioned].filter((name) => !ENV_NAMES.has(name))).toEqual([]);
    const flags = SERVER_FLAGS.flatMap((entry) => (entry.flag ? [entry.flag] : []));
    expect(new Set(flags).size).toBe(flags.length);
    expect(ENV_NAMES.size).toBe(SERVER_FLAGS.filter((entry) => entry.env).length);
  });

  it("is docs/reference/server-flags.md's table, word for word (npm run docs refreshes it)", () => {
    const page = readFileSync(join(ROOT, "docs/reference/server-flags.md"), "utf8");
    expect(page).toBe(serverFlagsPage());
    const rows = flagTable()
      .split("\n")
      .map((row) => row.replace(/\]\([^)]*\)/g, ""));
    for (const row of rows) expect(page.replace(/\]\([^)]*\)/g, "")).toContain(row);
  });

  it("is what --help prints: every flag and every env twin", () => {
    const usage = usageText(ALL_FLAG_SETS);
    for (const entry of SERVER_FLAGS) {
      if (entry.flag) expect(usage).toContain(`--${entry.flag}`);
      if (entry.env) expect(usage).toContain(entry.env);
    }
    expect(Math.max(...usage.split("\n").map((line) => line.length))).toBeLessThanOrEqual(100);
  });
});

describe("parseFlags", () => {
  const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseFlags(ALL_FLAG_SETS, argv, env);

  it("takes a flag over its env twin and says which one held a bad value", () => {
    expect(parse(["--max-redirects", "2"], { MCP_MAX_REDIRECTS: "9" })).toMatchObject({
      values: { "max-redirects": 2 },
      sources: { "max-redirects": "--max-redirects" },
    });
    expect(parse([], { MCP_MAX_REDIRECTS: "9" })).toMatchObject({ values: { "max-redirects": 9 } });
    expect(parse([], { MCP_MAX_REDIRECTS: "lots" })).toEqual({
      error: "MCP_MAX_REDIRECTS must be a whole number >= 0, not 'lots'",
    });
    expect(parse(["--port", "70000", "--http"])).toEqual({ error: "--port must be 0-65535, not '70000'" });
    expect(parse(["--mode", "fast"])).toEqual({ error: "--mode must be one of all, dynamic, code, not 'fast'" });
    expect(parse([], { MCP_READ_ONLY: "yes" })).toEqual({
      error: "MCP_READ_ONLY must be 1 (or true) to serve only read-only tools, or 0 (or false), not 'yes'",
    });
    expect(parse([], { MCP_READ_ONLY: "TRUE", MCP_MODE: "" })).toMatchObject({ values: { "read-only": true } });
  });

  it("refuses HTTP-only flags without --http, and ignores their env twins on stdio", () => {
    expect(parse(["--port", "1", "--metrics"])).toEqual({ error: "--port, --metrics need --http" });
    const stdio = parse([], { MCP_MAX_SESSIONS: "nope", MCP_SESSION_STORE: "redis://x" });
    expect(stdio).toMatchObject({ http: false, values: {} });
    expect(parse(["--http"], { MCP_MAX_SESSIONS: "nope" })).toEqual({
      error: "MCP_MAX_SESSIONS must be a whole number >= 1, not 'nope'",
    });
  });

  it("refuses an unknown flag with parseArgs' own message", () => {
    const result = parse(["--no-such-flag"]);
    expect("error" in result && result.error).toMatch(/Unknown option '--no-such-flag'/);
  });
});
