/**
 * Property: for every spec-language or OpenAPI document, however hostile, mcpgen either reports diagnostics (with
 * errors, writing nothing) or renders a package that compiles under `tsc --strict`; never an uncaught
 * exception, never a hang. FUZZ_RUNS (npm run test:fuzz) raises the case count. A failing input is
 * saved under regressions/ and replayed on every run from then on.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../generate/support.ts";
import { plausibleDocument, specDocument } from "./arbitraries.ts";
import { openApiDocument } from "./arbitraries-openapi.ts";
import { readmeProblems } from "./markdown-check.ts";
import { type CaseOutcome, runCase, typecheckPackages } from "./pipeline.ts";

// npm test runs 120 cases (the fixed seed reaches every outcome); npm run test:fuzz runs 3000.
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const TYPECHECKED = Number(process.env.FUZZ_TYPECHECKED ?? 4);
const REGRESSIONS = join(import.meta.dirname, "regressions");

/**
 * The suite, declared by the file that runs it: `npm test` (spec-fuzz.test.ts) without the type-check of
 * the packages, which takes most of its time; `test:large` (spec-fuzz.large.ts) and `test:fuzz` with it.
 */
export function fuzzSuite(options: { compile: boolean }): void {
  describe("the generator under random hostile specs", () => {
    const dir = scratchDir("spec-fuzz");
    const generated: Array<{
      name: string;
      files: Extract<CaseOutcome, { kind: "generated" }>["files"];
      weight: number;
    }> = [];
    const codes = new Map<string, number>();
    let counter = 0;

    /** Regressions always get type-checked; random cases by size. */
    async function check(text: string, ext: "yaml" | "json", regression = false): Promise<CaseOutcome> {
      const name = `case-${counter++}`;
      const file = join(dir, `${name}.${ext}`);
      writeFileSync(file, text);
      const outcome = await runCase(file, join(dir, `${name}-out`));
      if (outcome.kind === "generated") {
        // Whatever the spec said, the README keeps its tables and opens no HTML, link or block.
        const readme = outcome.files.find((f) => f.path === "README.md")?.content ?? "";
        const problems = readmeProblems(readme);
        if (problems.length > 0) throw new Error(`${name}: README.md: ${problems.slice(0, 3).join("; ")}`);
        generated.push({ name, files: outcome.files, weight: regression ? Number.POSITIVE_INFINITY : outcome.tools });
      } else for (const code of outcome.codes) codes.set(code, (codes.get(code) ?? 0) + 1);
      return outcome;
    }

    it("replays every saved regression", async () => {
      const files = readdirSync(REGRESSIONS).filter((f) => /\.(ya?ml|json)$/.test(f));
      for (const file of files) {
        const ext = file.endsWith(".json") ? "json" : "yaml";
        await expect(check(readFileSync(join(REGRESSIONS, file), "utf8"), ext, true), file).resolves.toBeDefined();
      }
    }, 120_000);

    it(`${RUNS} random documents: diagnostics or a package, never a crash or a hang`, async () => {
      const kinds = { diagnostics: 0, generated: 0, openApiGenerated: 0 };
      const result = await fc.check(
        fc.asyncProperty(
          fc.oneof(specDocument, plausibleDocument, openApiDocument),
          fc.boolean(),
          async (doc, asJson) => {
            const text = asJson ? JSON.stringify(doc, null, 1) : stringify(doc);
            const outcome = await check(text, asJson ? "json" : "yaml");
            kinds[outcome.kind]++;
            if (outcome.kind === "generated" && ("openapi" in doc || "swagger" in doc)) kinds.openApiGenerated++;
          },
        ),
        // npm test replays the same cases every time (no flakes); test:fuzz (FUZZ_RUNS set) explores new ones.
        {
          numRuns: RUNS,
          seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261122,
        },
      );
      if (result.failed) {
        const [doc, asJson] = result.counterexample ?? [];
        const text = asJson ? JSON.stringify(doc, null, 1) : stringify(doc);
        const saved = join(
          REGRESSIONS,
          `spec-${createHash("sha256").update(text).digest("hex").slice(0, 12)}.${asJson ? "json" : "yaml"}`,
        );
        mkdirSync(REGRESSIONS, { recursive: true });
        writeFileSync(saved, text);
        throw new Error(`${fc.defaultReportMessage(result)}\nsaved as ${saved}`);
      }
      if (process.env.FUZZ_STATS) console.log(kinds, Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])));
      // The generator must reach both outcomes, or the property tests little.
      expect(kinds.diagnostics).toBeGreaterThan(0);
      expect(kinds.generated).toBeGreaterThan(0);
      expect(kinds.openApiGenerated).toBeGreaterThan(0);
    }, 600_000);

    if (!options.compile) return;
    it("the generated packages compile under tsc --strict (a sample, the largest, in one run)", async () => {
      const regressions = generated.filter((g) => g.weight === Number.POSITIVE_INFINITY);
      const sample = [...generated].sort((a, b) => b.weight - a.weight).slice(0, regressions.length + TYPECHECKED);
      expect(sample.length).toBeGreaterThan(0);
      expect(await typecheckPackages(join(dir, "typecheck"), sample)).toBe("");
    }, 300_000);
  });
}
