/** Files a user can hand mcpgen that are not specs at all: each ends in one clear diagnostic, fast. */
import { chmodSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { validateFiles } from "../../generator/index.ts";
import { readSource } from "../../generator/source/read-source.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-files-"));

function only(file: string, options = {}) {
  const result = validateFiles([file], options);
  expect(result.diagnostics).toHaveLength(1);
  return { ...result.diagnostics[0], exitCode: result.exitCode };
}

describe("reading spec files", () => {
  it("a missing file is a usage error (exit 2)", () => {
    const d = only(join(dir, "nope.yaml"));
    expect([d.code, d.exitCode]).toEqual(["FILE_NOT_FOUND", 2]);
  });

  it("a directory is a usage error (exit 2)", () => {
    const d = only(dir);
    expect([d.code, d.exitCode]).toEqual(["FILE_IS_DIRECTORY", 2]);
  });

  it("a socket is not a regular file: a usage error (exit 2), never opened", async () => {
    const socket = join(dir, "spec.sock");
    const server = createServer().listen(socket);
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const d = only(socket);
      expect([d.code, d.exitCode]).toEqual(["FILE_NOT_REGULAR", 2]);
    } finally {
      server.close();
    }
  });

  // root reads any file whatever its mode, so only another user can see the refusal.
  it.skipIf(process.getuid?.() === 0)("a file the OS will not read is a usage error (exit 2)", () => {
    const locked = join(dir, "locked.yaml");
    writeFileSync(locked, "server: {}\n");
    chmodSync(locked, 0o000);
    const d = only(locked);
    expect([d.code, d.exitCode]).toEqual(["FILE_UNREADABLE", 2]);
  });

  it("a 50 MB file is refused before it is read", () => {
    const big = join(dir, "big.yaml");
    writeFileSync(big, "server: {}\n");
    truncateSync(big, 50 * 1024 * 1024);
    const started = Date.now();
    const d = only(big);
    expect(d.code).toBe("FILE_TOO_LARGE");
    expect(d.message).toContain("50.0 MiB");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("--max-size raises the limit", () => {
    const file = join(dir, "small.yaml");
    writeFileSync(file, `server: { name: a, version: 1.0.0 }\n# ${"x".repeat(2000)}\n`);
    expect(only(file, { maxBytes: 1000 }).code).toBe("FILE_TOO_LARGE");
    expect(validateFiles([file], { maxBytes: 4000 }).diagnostics).toEqual([]);
  });

  it("invalid UTF-8 is reported at the offending byte", () => {
    const file = join(dir, "latin1.yaml");
    writeFileSync(file, Buffer.concat([Buffer.from("server:\n  name: caf"), Buffer.from([0xe9]), Buffer.from("\n")]));
    const d = only(file);
    expect([d.code, d.line, d.col]).toEqual(["FILE_NOT_UTF8", 2, 12]);
    expect(d.message).toContain("0xe9");
  });

  it("a UTF-8 byte-order mark is accepted", () => {
    const file = join(dir, "bom.yaml");
    writeFileSync(file, `\uFEFFserver: { name: a, version: 1.0.0 }\n`);
    expect(validateFiles([file]).diagnostics).toEqual([]);
  });

  it("a billion-laughs document is refused quickly, without expanding it", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 12; i++) {
      const [prev, name] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)];
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const file = join(dir, "bomb.yaml");
    writeFileSync(file, `${levels.join("\n")}\n`);
    const started = Date.now();
    expect(only(file).code).toBe("YAML_ALIAS_LIMIT");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("JSON specs get positions too, tabs and all", () => {
    const file = join(dir, "spec.json");
    writeFileSync(file, '{\n\t"server": {\n\t\t"name": "a",\n\t\t"version": 1\n\t}\n}\n');
    const d = only(file);
    expect([d.code, d.line, d.col, d.pointer]).toEqual(["SPEC_WRONG_TYPE", 4, 14, "/server/version"]);
  });

  it("JSON's fast path still refuses duplicate keys, escaped spellings included, at the duplicate", () => {
    const file = join(dir, "dup.json");
    writeFileSync(file, '{"server": {"name": "a", "version": "1.0.0"},\n "tools": [], "t\\u006fols": []}\n');
    const d = only(file);
    expect([d.code, d.line, d.col]).toEqual(["YAML_DUPLICATE_KEY", 2, 15]);
  });

  it("a .json file with a syntax error gets one JSON_SYNTAX at the exact character", () => {
    const file = join(dir, "broken.json");
    writeFileSync(file, '{"server": {"name": "a", "version": "1.0.0"},\n "tools": [}\n');
    const found = validateFiles([file]).diagnostics;
    expect(found.map((d) => `${d.code}:${d.line}:${d.col}`)).toEqual(["JSON_SYNTAX:2:12"]);
  });

  it("JSON keys and strings holding quotes, brackets and backslashes are not duplicates", () => {
    const file = join(dir, "tricky.json");
    const text = '{"server": {"name": "a\\\\", "version": "1.0.0", "title": "{\\"[x"}, "tools": [], "prompts": []}';
    writeFileSync(file, text);
    expect(validateFiles([file]).diagnostics).toEqual([]);
  });

  it.each(["json", "yaml"])("a %s document nested 300 levels deep is refused at the first level too deep", (ext) => {
    const file = join(dir, `deep.${ext}`);
    writeFileSync(file, `{"server": ${"[".repeat(300)}${"]".repeat(300)}}`);
    const d = only(file);
    expect([d.code, d.pointer]).toEqual(["YAML_SYNTAX", `/server${"/0".repeat(256)}`]);
    expect(d.message).toContain("nests more than 256 levels");
  });

  it("reports every problem of every file in one run, sorted by position", () => {
    const a = join(dir, "a.yaml");
    const b = join(dir, "b.yaml");
    writeFileSync(a, "server: { name: a, version: x }\ntools:\n  - { name: 'b c', inputSchema: { type: array } }\n");
    writeFileSync(b, "server: { name: b }\n");
    const { diagnostics, exitCode } = validateFiles([b, a]);
    expect(exitCode).toBe(1);
    expect(diagnostics.map((d) => `${d.file === a ? "a" : "b"}:${d.line}:${d.code}`)).toEqual([
      "a:1:SERVER_VERSION_NOT_SEMVER",
      "a:3:NAME_INVALID",
      "a:3:SCHEMA_NOT_OBJECT",
      "b:1:SPEC_MISSING_FIELD",
    ]);
  });
});

describe("a JSON spec's positions, once released", () => {
  const text = '{\n  "openapi": "3.1.0",\n  "info": { "title": "Ünïcode", "version": "1" }\n}\n';
  const spec = join(dir, "released.json");

  function released(file: string) {
    writeFileSync(file, `\uFEFF${text}`);
    const bag = new DiagnosticBag();
    const source = readSource(file, bag);
    expect(source?.release).toBeTypeOf("function");
    source?.locate("/info/title");
    source?.release?.();
    return source;
  }

  it("are found again from the file, as they were", () => {
    const source = released(spec);
    expect(source?.locate("/info/title")).toEqual({ line: 3, col: 22 });
  });

  it("are not trusted once the file has changed: 1:1, never a wrong place", () => {
    const source = released(spec);
    writeFileSync(spec, `\n\n${text}`);
    expect(source?.locate("/info/title")).toEqual({ line: 1, col: 1 });
  });
});
