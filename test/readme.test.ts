import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { README_PATH, readmeWithCodes } from "../scripts/readme-codes.ts";

it("the README's diagnostic-code table matches the catalog (npm run docs refreshes it)", () => {
  const readme = readFileSync(README_PATH, "utf8");
  expect(readme).toBe(readmeWithCodes(readme));
});
