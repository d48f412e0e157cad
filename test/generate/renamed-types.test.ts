/**
 * After a tool is renamed (renamedFrom), its handler moves to the new name's file but still imports the types of the
 * former name; the type-check that generate runs says which type to change to (issue 33 item 13).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { stringify } from "yaml";
import { ROOT, scratchDir } from "./support.ts";

const tool = (name: string, renamedFrom?: string) => ({
  name,
  ...(renamedFrom ? { renamedFrom } : {}),
  description: "The price of an item",
  inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
  outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
});
const spec = (t: object) => stringify({ server: { name: "prices", version: "1.0.0" }, tools: [t] });

type Diagnostic = { code: string; file: string; message: string; hint?: string };

it("a renamed tool's handler importing the former types is told the new type names", () => {
  const dir = scratchDir("renamed-types");
  const pkg = join(dir, "pkg");
  const generate = () =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [join(ROOT, "bin/mcpgen.js"), "generate", "prices.yaml", "--out", pkg, "--format", "json"],
        {
          cwd: dir,
          encoding: "utf8",
        },
      ),
    ) as { diagnostics: Diagnostic[] };
  writeFileSync(join(dir, "prices.yaml"), spec(tool("get_pricing")));
  generate();
  const handler = join(pkg, "src/handlers/tools/get_pricing.ts");
  // The user's code: no longer the scaffold, so generate type-checks it.
  const scaffold = readFileSync(handler, "utf8");
  expect(scaffold).toContain("GetPricingInput");
  writeFileSync(handler, scaffold.replace(/export default async function[\s\S]*$/, MINE));

  writeFileSync(join(dir, "prices.yaml"), spec(tool("get_price", "get_pricing")));
  const { diagnostics } = generate();
  const errors = diagnostics.filter((d) => d.code === "HANDLER_TYPE_ERROR");
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error.file).toMatch(/src\/handlers\/tools\/get_price\.ts$/);
  const hints = errors.map((d) => d.hint ?? "");
  expect(hints).toContain(
    "the tool was renamed, and its types with it: change GetPricingInput to GetPriceInput (in the import and where it is used)",
  );
  expect(hints).toContain(
    "the tool was renamed, and its types with it: change GetPricingOutput to GetPriceOutput (in the import and where it is used)",
  );
});

const MINE = `export default async function toolGetPricing(args: GetPricingInput, _ctx: SpecContext): Promise<ToolResult<GetPricingOutput>> {
  return { structuredContent: { price: args.item.length } };
}
`;
