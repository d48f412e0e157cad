/**
 * Work kept across runs by its input (generator/output/content-cache.ts, issue 32): a regenerate after a
 * one-tool change compiles only that tool's validator chunk again, a first generate into a new folder
 * reuses an earlier run's work and writes the same bytes as a run without the cache, a folder others can
 * write is never used, and the folder stays bounded without touching files mcpgen did not name.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { remember, withMemo } from "../../generator/output/answer-memo.ts";
import { pruneCache } from "../../generator/output/cache-folder.ts";
import { contentCache, jsonParts, remembered } from "../../generator/output/content-cache.ts";
import { freshCacheEachTest } from "./cache-env.ts";
import { scratchDir } from "./support.ts";

const cacheFolder = freshCacheEachTest("content-cache");

const entries = (kind: string) => {
  try {
    return readdirSync(join(cacheFolder(), "content", kind)).sort();
  } catch {
    return [];
  }
};

/** A spec with `count` tools (100 to a validator chunk), tool `changed` with another description of its `q`. */
function spec(dir: string, count: number, changed = -1): string {
  const tools = Array.from({ length: count }, (_, n) =>
    [
      `  - name: tool_${n}`,
      // Markdown: the README parses it (prose-memo.ts keeps the answers).
      `    description: "Tool **number** ${n}."`,
      "    inputSchema:",
      "      type: object",
      `      properties: { q: { type: string, maxLength: ${n + 1}, description: "${n === changed ? "changed" : "query"}" } }`,
      "      required: [q]",
    ].join("\n"),
  );
  const file = join(dir, "spec.yaml");
  writeFileSync(file, `server: { name: many, version: 1.0.0 }\ntools:\n${tools.join("\n")}\n`);
  return file;
}

/** Every file of a package but dist/ and mcpgen's run record, path → bytes. */
function tree(root: string, under = ""): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(join(root, under))) {
    const path = under ? `${under}/${name}` : name;
    if (path === "dist" || path === ".mcpgen/fingerprint.json") continue;
    if (statSync(join(root, path)).isDirectory()) for (const [p, c] of tree(root, path)) files.set(p, c);
    else files.set(path, readFileSync(join(root, path), "utf8"));
  }
  return files;
}

describe("the content cache", () => {
  it("a one-tool change compiles only that tool's validator chunk again, with the bytes of an uncached run", async () => {
    const dir = scratchDir("content-cache-spec");
    const first = await generate(spec(dir, 250), join(dir, "one"));
    expect(first.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const chunks = entries("validators");
    expect(chunks).toHaveLength(3);
    expect(entries("types")).toHaveLength(1);
    expect(entries("dist").length).toBeGreaterThan(0);
    expect(entries("prose")).toHaveLength(1);

    // Tool 150 sits in the second chunk: that chunk alone is compiled and stored anew.
    await generate(spec(dir, 250, 150), join(dir, "one"));
    const after = entries("validators");
    expect(after).toHaveLength(4);
    expect(after.filter((name) => !chunks.includes(name))).toHaveLength(1);

    // A first generate into another folder reads everything back and writes what a cacheless run writes.
    const stored = new Map(
      after.map((name) => [name, statSync(join(cacheFolder(), "content/validators", name)).mtimeMs]),
    );
    await generate(spec(dir, 250, 150), join(dir, "two"));
    expect(entries("validators")).toEqual(after);
    process.env.MCPGEN_CACHE = "off";
    await generate(spec(dir, 250, 150), join(dir, "uncached"));
    const [two, uncached] = [tree(join(dir, "two")), tree(join(dir, "uncached"))];
    expect([...two.keys()]).toEqual([...uncached.keys()]);
    for (const [path, content] of uncached) expect(two.get(path), path).toBe(content);
    expect(two.get("src/validators/1.cjs")).toContain("changed");
    // Nothing was rewritten by the cached run (the entries it used were read).
    for (const [name, mtime] of stored)
      expect(statSync(join(cacheFolder(), "content/validators", name)).mtimeMs).toBeGreaterThanOrEqual(mtime);
  });

  it("keeps answers by their exact text, for this run and the next: the README's Markdown, token counts", () => {
    let made = 0;
    const ask = (text: string) =>
      remember("prose", "summary", text, () => {
        made++;
        return `<${text}>`;
      });
    expect(withMemo("prose", "pkg", () => [ask("a *b*"), ask("a *b*"), ask("c")])).toEqual([
      "<a *b*>",
      "<a *b*>",
      "<c>",
    ]);
    expect(made).toBe(2);
    // The next run reads them back; a new text is made.
    expect(withMemo("prose", "pkg", () => [ask("a *b*"), ask("a *b* ")])).toEqual(["<a *b*>", "<a *b* >"]);
    expect(made).toBe(3);
    // Only what a run used is stored: "c" went with the second run.
    withMemo("prose", "pkg", () => ask("c"));
    expect(made).toBe(4);
    // Another package's answers are its own, and so are another kind's and another question's.
    withMemo("prose", "other", () => ask("c"));
    expect(made).toBe(5);
    withMemo("tokens", "pkg", () => ask("c"));
    expect(made).toBe(6);
    withMemo("prose", "pkg", () => remember("prose", "headings", "c", () => String(++made)));
    expect(made).toBe(7);
    // A damaged entry costs only the work.
    for (const name of entries("prose")) writeFileSync(join(cacheFolder(), "content/prose", name), "[[1, 2]]");
    withMemo("prose", "pkg", () => ask("c"));
    expect(made).toBe(8);
    // Outside withMemo nothing is kept.
    ask("c");
    ask("c");
    expect(made).toBe(10);
  });

  it("counts a regenerate's tokens only for the tools that changed", async () => {
    const dir = scratchDir("content-cache-tokens");
    const counted = () => {
      const stored = entries("tokens").map((name) => readFileSync(join(cacheFolder(), "content/tokens", name), "utf8"));
      return stored.length === 1 ? (JSON.parse(stored[0]) as [string, string][]) : [];
    };
    const first = await generate(spec(dir, 30), join(dir, "out"));
    const before = new Map(counted());
    // 30 tools, the list's head, the empty list and the last tool with the list's end (and dynamic mode's
    // list, counted once per process).
    expect(before.size).toBeGreaterThanOrEqual(33);
    const again = await generate(spec(dir, 30, 7), join(dir, "out"));
    const after = new Map(counted());
    expect(after.size).toBe(before.size);
    expect([...after.keys()].filter((key) => !before.has(key))).toHaveLength(1);
    expect(again.toolsList?.all.tokens).toBe(first.toolsList?.all.tokens);
    // A stored count that is not a whole number is counted again, never read as NaN.
    const [entry] = entries("tokens");
    writeFileSync(
      join(cacheFolder(), "content/tokens", entry),
      JSON.stringify([...after.keys()].map((key) => [key, "many"])),
    );
    // Into another folder: the same spec into the same one is answered from its fingerprint, rendering nothing.
    const damaged = await generate(spec(dir, 30, 7), join(dir, "elsewhere"));
    expect(damaged.toolsList?.all.tokens).toBe(first.toolsList?.all.tokens);
    expect(counted().every(([, count]) => /^\d+$/.test(count))).toBe(true);
  });

  it("serves an entry only for exactly its input and kind", () => {
    const types = contentCache("types");
    types?.set("input", "stored");
    expect(types?.get("input")).toBe("stored");
    expect(types?.get("input ")).toBeUndefined();
    expect(contentCache("dist")?.get("input")).toBeUndefined();
  });

  it("takes a large input in parts: the JSON text of the whole, and an entry only for exactly those parts", () => {
    const value = {
      a: 1,
      skipped: undefined,
      list: [1, undefined, () => 1, { d: 'x\u2028"' }],
      '"key': { e: null, f: { g: [true] } },
      empty: [[], {}],
    };
    for (const depth of [0, 1, 2, 3, 6])
      for (const item of [value, [value, null], "text", 3, null, []])
        expect([...jsonParts(item, depth)].join("")).toBe(JSON.stringify(item));
    let made = 0;
    const make = (text: string) => () => {
      made++;
      return text;
    };
    expect(remembered("tokens", () => jsonParts(value), make("first"))).toBe("first");
    expect(remembered("tokens", () => jsonParts(value, 1), make("second"))).toBe("first");
    expect(remembered("tokens", () => jsonParts({ ...value, a: 2 }), make("third"))).toBe("third");
    expect(made).toBe(2);
  });

  it("is not used in a folder others can write, nor with MCPGEN_CACHE=off", () => {
    contentCache("types")?.set("input", "stored");
    chmodSync(join(cacheFolder(), "content/types"), 0o777);
    expect(contentCache("types")).toBeUndefined();
    chmodSync(join(cacheFolder(), "content/types"), 0o700);
    expect(contentCache("types")?.get("input")).toBe("stored");
    process.env.MCPGEN_CACHE = "off";
    expect(contentCache("types")).toBeUndefined();
  });

  it("stays bounded: the least recently used entries go first, and files it did not name stay", () => {
    const dist = contentCache("dist");
    for (const n of [1, 2, 3]) dist?.set(`input ${n}`, "x".repeat(1000));
    const [oldest, ...rest] = entries("dist");
    // Each entry's time is its last use: make the first stored the least recently used, then read the others.
    for (const name of entries("dist")) utimesSync(join(cacheFolder(), "content/dist", name), 1, 1);
    for (const n of [2, 3]) dist?.get(`input ${n}`);
    const dropped = entries("dist").find(
      (name) => statSync(join(cacheFolder(), "content/dist", name)).mtimeMs < 10_000,
    );
    mkdirSync(join(cacheFolder(), "content/dist"), { recursive: true });
    writeFileSync(join(cacheFolder(), "content/dist/notes.txt"), "the user's own file");
    pruneCache(2500);
    expect(entries("dist")).toHaveLength(3);
    expect(entries("dist")).toContain("notes.txt");
    expect(entries("dist")).not.toContain(dropped);
    expect([oldest, ...rest]).toContain(dropped);
  });
});
