/**
 * `mcpgen generate` writes dynamic mode's tool-search index (src/search-index.json) for every package with
 * tools: the runtime loads it and ranks exactly as an index it builds in memory from the same catalog, the
 * build copies it into dist/src, and the package depends on what the search needs.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { parseSearchIndex } from "../../runtime/search/search-index.ts";
import { createToolSearch } from "../../runtime/search/tool-search.ts";
import { ROOT, scratchDir } from "./support.ts";

const PETSTORE = join(ROOT, "bench/specs/petstore.openapi.yaml");
/** Tool search serves dynamic mode: the packages here have the feature (petstore alone would not, by default). */
const DYNAMIC = { features: ["dynamic"] };

describe("src/search-index.json", () => {
  it("is written for a package with tools, and the runtime ranks with it as with an in-memory build", async () => {
    const out = scratchDir("search-index");
    const result = await generate(PETSTORE, out, DYNAMIC);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const file = join(out, "src/search-index.json");
    const tools = readCatalog(pathToFileURL(join(out, "src/catalog.json"))).tools;
    expect(tools.length).toBeGreaterThan(2);

    const index = parseSearchIndex(readFileSync(file, "utf8"));
    expect(index?.documentCount).toBe(tools.length);
    for (const tool of tools) expect(index?.has(tool.name), tool.name).toBe(true);

    const fromFile = createToolSearch(tools, pathToFileURL(file));
    const inMemory = createToolSearch(tools);
    const queries = ["add a new pet", "remove a pet", "show me all the pets", "find a pet by its id", "update", "x"];
    for (const query of queries) {
      const options = { limit: 5, allowed: () => true };
      expect(fromFile.search(query, options), query).toEqual(inMemory.search(query, options));
    }
    expect(fromFile.search("add a new pet", { limit: 1, allowed: () => true })).toHaveLength(1);
  });

  it("is copied by the build, and the package depends on minisearch and stemmer", async () => {
    const out = scratchDir("search-index");
    await generate(PETSTORE, out, DYNAMIC);
    const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies;
    expect(pkg.dependencies.minisearch).toBe(own.minisearch);
    expect(pkg.dependencies.stemmer).toBe(own.stemmer);
    expect(pkg.scripts.build).toContain("'search-index.json'");
  });

  it("is not written for a package without tools, whose runtime still carries search for --mode dynamic when it has the feature", async () => {
    const dir = scratchDir("search-index");
    const spec = join(dir, "no-tools.yaml");
    writeFileSync(
      spec,
      [
        "server: { name: docs-only, version: 1.0.0 }",
        "resources:",
        "  - uri: docs://readme",
        "    name: readme",
        "    mimeType: text/plain",
        "    text: Hello",
        "",
      ].join("\n"),
    );
    const out = join(dir, "out");
    const result = await generate(spec, out, DYNAMIC);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(existsSync(join(out, "src/catalog.json"))).toBe(true);
    expect(existsSync(join(out, "src/search-index.json"))).toBe(false);
    // A package with dynamic mode can be started with --mode dynamic even without tools, so its runtime carries tool search
    // (loaded on the first search only) and package.json lists what that needs.
    expect(existsSync(join(out, "runtime/search/tool-search.ts"))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(["minisearch", "stemmer"]));
  });
});
