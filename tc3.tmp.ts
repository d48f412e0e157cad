import { readFileSync } from "node:fs";
import { readCatalog } from "./runtime/package/spec-server.ts";
import { servedTools } from "./generator/render/package-cost.ts";
import { countTokens, servedTool, toolListCost, costLine } from "./generator/render/token-cost.ts";
const file = new URL("file:///tmp/tc/github/src/manifest.json");
const stored = JSON.parse(readFileSync(file, "utf8"));
const mine = servedTools(stored);
const cat = readCatalog(file);
const a = JSON.stringify({ tools: cat.tools.map(servedTool) });
const b = JSON.stringify({ tools: mine.map(servedTool) });
console.log("same text", a === b, a.length);
countTokens("x");
let t = performance.now();
const cost = toolListCost(mine);
console.log("toolListCost ms", performance.now() - t);
t = performance.now();
const full = countTokens(a);
console.log("full ms", performance.now() - t, full, cost.all.tokens, costLine(cost));
// toolsets by first path segment for an exactness check of subsets
const withSets = mine.map((tool) => ({ ...tool, toolset: tool.name.split("/")[0] }));
t = performance.now();
const c2 = toolListCost(withSets);
console.log("with toolsets ms", performance.now() - t, c2.toolsets.length);
let bad = 0;
for (const ts of c2.toolsets) {
  const list = withSets.filter((x) => x.toolset === ts.name).map(servedTool);
  const exact = countTokens(JSON.stringify({ tools: list }));
  if (exact !== ts.tokens) { bad++; console.log(ts.name, exact, ts.tokens); }
}
console.log("bad", bad);
const per = c2.perTool.map((p) => p.tokens).sort((x, y) => x - y);
const alone = mine.map((x) => countTokens(JSON.stringify(servedTool(x)))).sort((x, y) => x - y);
console.log("median share", per[Math.floor(per.length / 2)], "max", per.at(-1), "alone median", alone[Math.floor(alone.length/2)], alone.at(-1));
