/**
 * Every tool name the search query sets expect exists in the package mcpgen generates from the same
 * OpenAPI document (every set of bench/search/query-sets.ts). Run by `npm run test:large`: generating GitHub takes tens of seconds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogEntry, checkQuerySet } from "../../bench/search/check-queries.ts";
import { QUERY_SET_FILES } from "../../bench/search/query-sets.ts";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const SETS = QUERY_SET_FILES.map((set) => ({ ...set, api: set.id }));

describe.each(SETS)("the $api query set", ({ api, spec, file }) => {
  it("expects only tools the generated package has", async () => {
    const out = scratchDir(`search-queries-${api}`);
    const result = await generate(join(ROOT, spec), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const catalog = JSON.parse(readFileSync(join(out, "src/catalog.json"), "utf8")) as { tools: CatalogEntry[] };
    const { queries, problems } = checkQuerySet(join(ROOT, file), catalog.tools);
    expect(problems).toEqual([]);
    expect(queries).toBeGreaterThanOrEqual(api === "github" ? 50 : api === "stripe" ? 20 : api === "asana" ? 30 : 40);
  });
});
