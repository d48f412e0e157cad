/**
 * Each feature documents itself (issue 28 §1): its folder's readme.md.hbs holds its part of a generated
 * package's README, in sections at the slots templates/package-readme.md.hbs has, and a package's README
 * carries the sections of exactly the features it was generated with.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/build-model.ts";
import { FEATURE_MODULES } from "../../generator/normalize/features.ts";
import { renderDocs } from "../../generator/render/docs.ts";
import { featureReadmeSections, README_SLOTS } from "../../generator/render/feature-docs.ts";
import { ROOT } from "./support.ts";

const TEMPLATE = readFileSync(`${ROOT}/templates/package-readme.md.hbs`, "utf8");
const camel = (slot: string) => slot.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function readmeOf(features: string[]): string {
  const { model, diagnostics } = buildModel(`${ROOT}/specs/weather.yaml`);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return renderDocs({ ...model!, features: FEATURE_MODULES.filter((f) => features.includes(f.name)) });
}

describe("feature README fragments", () => {
  it("every slot a fragment names is one the package template fills", () => {
    for (const slot of README_SLOTS) expect(TEMPLATE).toContain(`{{{slots.${camel(slot)}}}}`);
    for (const feature of FEATURE_MODULES) {
      for (const section of featureReadmeSections(feature.name)) expect(README_SLOTS).toContain(section.slot);
    }
  });

  it("every feature with flags documents them, and its flags appear in its package's README", () => {
    for (const feature of FEATURE_MODULES.filter((f) => f.flags)) {
      expect(existsSync(`${ROOT}/runtime/features/${feature.name}/readme.md.hbs`), feature.name).toBe(true);
      const readme = readmeOf([feature.name, ...(feature.requires ?? [])]);
      for (const flag of feature.flags!.flags) {
        expect(readme, `${feature.name}: ${flag.flag ?? flag.env}`).toContain(
          `\`${flag.flag ? `--${flag.flag}` : flag.env}`,
        );
      }
    }
  });

  it("a package's README has the sections of its features and none of the others", () => {
    const headings = [
      "#### Connecting to a protected server",
      "### Authorization (OAuth)",
      "## Code mode",
      "## Responses within a budget",
      "### Token exchange (RFC 8693), built in",
      "Redis holds each session's",
    ];
    const core = readmeOf([]);
    for (const heading of headings) expect(core).not.toContain(heading);
    expect(core).toContain("This package was generated\nwithout the `redis` feature");
    const all = readmeOf(FEATURE_MODULES.map((f) => f.name));
    for (const heading of headings) expect(all).toContain(heading);
    expect(all).not.toContain("without the `redis` feature");
    expect(readmeOf(["budget"])).toContain("## Responses within a budget");
    expect(readmeOf(["budget"])).not.toContain("## Code mode");
  });
});
