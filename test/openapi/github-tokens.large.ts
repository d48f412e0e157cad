/**
 * GitHub's REST API (1,223 tools) through generate's token reporting: the MANY_TOOLS warning names the
 * 128 cap, `toolsList` equals counting the whole tools/list text of the catalog the server reads, and the
 * package README opens with the dynamic-mode command line. Run by `npm run test:large`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { countTokens, servedTool } from "../../generator/render/token-cost.ts";
import { readCatalog } from "../../runtime/package/spec-server.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

describe("GitHub's tools/list cost", () => {
  it("is counted exactly, warned about, and the README recommends dynamic mode", async () => {
    const out = scratchDir("github-tokens");
    const result = await generate(GITHUB, out);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warning = result.diagnostics.find((d) => d.code === "MANY_TOOLS");
    expect(warning?.message).toMatch(/^the server has 1,\d{3} tools, more than the 128/);
    const catalog = readCatalog(pathToFileURL(join(out, "src/catalog.json")));
    const whole = countTokens(JSON.stringify({ tools: catalog.tools.map(servedTool) }));
    expect(result.toolsList?.all).toEqual({ tools: catalog.tools.length, tokens: whole });
    expect(result.toolsList?.toolsets.reduce((n, t) => n + t.tools, 0)).toBe(catalog.tools.length);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    const opening = readme.split("\n## ")[0];
    expect(opening).toContain("node dist/server.js --mode dynamic ");
    expect(opening).toContain(`costs ${whole.toLocaleString("en-US")} tokens`);
  }, 300_000);
});
