/**
 * Defence in depth: if rendering ever throws on a spec that passed every rule (the fuzz tests found
 * three such specs), `generate` reports RENDER_FAILED, writes nothing and shows no stack trace.
 * The render stage is replaced by one that throws, since no known spec makes the real one fail.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir } from "../generate/support.ts";

vi.mock("../../generator/render/index.ts", () => ({
  render: async () => {
    throw new Error("Refs should have been resolved by the resolver!\n    at parse (parser.js:302:19)");
  },
}));

describe("a render stage that throws", () => {
  it("becomes RENDER_FAILED: an error, one line, nothing written", async () => {
    const out = join(scratchDir("render-failed"), "pkg");
    const result = await generate(join(ROOT, "specs/weather.yaml"), out);
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([["RENDER_FAILED", "error"]]);
    expect(result.diagnostics[0].message).toBe(
      "cannot render the package: Refs should have been resolved by the resolver!",
    );
    expect(result.outcome).toBeUndefined();
    expect(existsSync(out)).toBe(false);
  });
});
