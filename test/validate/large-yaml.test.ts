/**
 * The large-YAML fast path (yaml-chunks.ts + yaml-fast.ts) must read exactly what the `yaml` library reads
 * and point diagnostics at the same line:col; where it cannot, it must step aside (undefined), never guess.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { largeSpecChunks } from "../../bench/large-spec.ts";
import { validateFiles } from "../../generator/index.ts";
import { parseYamlInChunks } from "../../generator/source/yaml-chunks.ts";
import { parseFastYaml } from "../../generator/source/yaml-fast.ts";
import { yamlLocator } from "../../generator/source/yaml-locator.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const yamlOf = (text: string) => parse(text, { uniqueKeys: false });

describe("parseFastYaml", () => {
  it("reads every example spec as `yaml` does, or steps aside", () => {
    for (const name of ["notes.yaml", "weather.yaml", "petstore.yaml", "conformance.yaml"]) {
      const text = readFileSync(join(ROOT, "specs", name), "utf8");
      const fast = parseFastYaml(text);
      if (fast !== undefined) expect(fast, name).toEqual(yamlOf(text));
    }
    expect(parseFastYaml(readFileSync(join(ROOT, "specs/notes.yaml"), "utf8"))).toBeDefined();
  });

  it("agrees on scalars, flow collections, quoting, comments and nesting", () => {
    const text = [
      "a: 1",
      "b: -2.5e3",
      "version: 0.3.1",
      "date: 2024-01-01",
      "yes: no",
      "c: true",
      "d: null",
      "e:",
      "f: plain text, with comma # and a comment",
      'g: "quoted \\"x\\" \\u00e9 # not a comment"',
      "h: 'single ''quoted'''",
      "i: { type: string, description: City name, e.g. Paris, x-mcp-header: City }",
      'j: [a, "b", 3, { k: [] }, []]',
      "k: http://example.com/a:b",
      "l:",
      "- x",
      "-",
      "- y: 1",
      "  z: [2]",
      "m:",
      "  - - nested",
      "    - list",
      "  -   spaced: yes",
      "# trailing comment",
      "",
    ].join("\n");
    expect(parseFastYaml(text)).toEqual(yamlOf(text));
    expect(isDeepStrictEqual(parseFastYaml(text), yamlOf(text))).toBe(true);
  });

  it("steps aside for what it does not read: anchors, tags, block and multi-line scalars, odd numbers, duplicates", () => {
    for (const text of [
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: |\n  text\n",
      "a: >-\n  text\n",
      "a: one\n  two\n",
      'a: "one\n  two"\n',
      "a: [1,\n  2]\n",
      "a: 0x1F\n",
      "a: 0o17\n",
      "a: +1\n",
      "a: 1.\n",
      "a: .5\n",
      "a: ~\n",
      "a: 1\na: 2\n",
      "a:\tb\n",
      "a: b\r\n",
      "? complex\n: key\n",
      '"a\\tb": 1\n',
      "a: { b: 1, b: 2 }\n",
      "__proto__: 1\n",
      "a: b: c\n",
    ]) {
      expect(parseFastYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe("parseYamlInChunks", () => {
  const text = [...largeSpecChunks(2600)].join("");

  it("is used only for files over 1 MiB", () => {
    expect(parseYamlInChunks("server: { name: a, version: 1.0.0 }\n")).toBeUndefined();
    expect(text.length).toBeGreaterThan(1024 * 1024);
  });

  it("reads a large spec exactly as the whole-document parse does, and locates as its locator does", () => {
    const chunked = parseYamlInChunks(text);
    expect(chunked).toBeDefined();
    expect(isDeepStrictEqual(chunked!.value, yamlOf(text))).toBe(true);
    const whole = yamlLocator(text);
    const pointers = ["", "/server", "/server/name", "/upstream/auth/env", "/tools", "/tools/0", "/tools/0/name"];
    pointers.push(
      "/tools/1234/inputSchema/properties",
      "/tools/2599/http/path",
      "/tools/9999",
      "/nope",
      "/tools/7/nope",
    );
    for (const pointer of pointers) {
      for (const target of ["key", "value"] as const) {
        expect(chunked!.locate(pointer, target), `${pointer} ${target}`).toEqual(whole(pointer, target));
      }
    }
  });

  it("steps aside for a document marker, a flow top level, a duplicate top-level key or an alias across pieces", () => {
    expect(parseYamlInChunks(`---\n${text}`)).toBeUndefined();
    expect(parseYamlInChunks(`${text}server: { name: b, version: 1.0.0 }\n`)).toBeUndefined();
    expect(parseYamlInChunks(`x: &big 1\n${text}  - *big\n`)).toBeUndefined();
    expect(parseYamlInChunks(`{ a: 1 }\n${" ".repeat(1024 * 1024)}`)).toBeUndefined();
  });

  it("a diagnostic deep in a large spec has the same line:col as before (through the CLI's validate)", () => {
    const dir = scratchDir("large-yaml");
    const lines = text.split("\n");
    const at = lines.findIndex((line) => line.includes("_2000"));
    lines[at] = lines[at].replace(/name: \S+/, "name: bad name");
    const file = join(dir, "big.yaml");
    writeFileSync(file, lines.join("\n"));
    const result = validateFiles([file]);
    // MANY_TOOLS (thousands of tools) is expected beside it.
    const found = result.diagnostics.filter((d) => d.code !== "MANY_TOOLS");
    expect(found.map((d) => [d.code, d.line, d.col])).toEqual([["NAME_INVALID", at + 1, 11]]);
  });
});
