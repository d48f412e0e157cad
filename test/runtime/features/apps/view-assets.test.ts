// The view's shared script and styles (runtime/features/apps/view-assets.ts): what scripts/build-view.ts makes
// of the sources now, inside the 40 KB budget, free of markup-parsing DOM calls, and type-checked
// against the DOM (the browser code has its own tsconfig, out of the Node one).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { VIEW_SCRIPT, VIEW_STYLE } from "../../../../runtime/features/apps/view-assets.ts";
import { ASSETS_PATH, viewAssets } from "../../../../scripts/build-view.ts";
import { ROOT } from "../../../generate/support.ts";

const VIEW_DIR = join(ROOT, "runtime/features/apps/view");
const BUDGET = 40 * 1024;

test("view-assets.ts is what build-view makes of the current sources", async () => {
  const built = await viewAssets();
  if ("error" in built) throw new Error(built.error);
  const stale = readFileSync(ASSETS_PATH, "utf8") !== built.text;
  expect(stale, "view-assets.ts is stale: run npm run build:view").toBe(false);
  expect(VIEW_SCRIPT).toContain("ui/initialize");
  expect(VIEW_STYLE).toContain(".view-table");
});

test("the script and styles stay under the 40 KB budget and end no element of the page early", () => {
  const bytes = Buffer.byteLength(VIEW_SCRIPT) + Buffer.byteLength(VIEW_STYLE);
  expect(bytes).toBeGreaterThan(1000);
  expect(bytes).toBeLessThan(BUDGET);
  expect(VIEW_SCRIPT + VIEW_STYLE).not.toMatch(/<\/(script|style)/i);
});

test("the view's sources put API text in as text only, and use no Node API", () => {
  const found: string[] = [];
  for (const name of readdirSync(VIEW_DIR).filter((file) => file.endsWith(".ts"))) {
    const text = readFileSync(join(VIEW_DIR, name), "utf8");
    for (const call of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "Buffer", "process."]) {
      if (text.includes(call)) found.push(`${name}: ${call}`);
    }
    if (/from "node:/.test(text)) found.push(`${name}: node: import`);
  }
  expect(found).toEqual([]);
});

test("tsc -p runtime/features/apps/view passes (strict, DOM)", () => {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const run = () => execFileSync(process.execPath, [tsc, "-p", VIEW_DIR], { cwd: ROOT, encoding: "utf8" });
  expect(run).not.toThrow();
}, 60_000);
