// The feature names are written in three places users meet: generate's registry (features.ts), the spec
// schema's `features` enum (editors complete from it) and the config file's type. They must agree.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FEATURE_NAMES } from "../../generator/normalize/features.ts";
import { SPEC_SCHEMA_PATH } from "../../generator/spec/check-structure.ts";

describe("feature names", () => {
  it("the spec schema's features enum and the config type list exactly the registry's names", () => {
    const schema = JSON.parse(readFileSync(SPEC_SCHEMA_PATH, "utf8"));
    const enumOf = (node: unknown): string[] | undefined => {
      if (!node || typeof node !== "object") return undefined;
      const record = node as Record<string, unknown>;
      if (record.features && typeof record.features === "object") {
        const items = (record.features as { items?: { enum?: string[] } }).items;
        if (items?.enum) return items.enum;
      }
      for (const value of Object.values(record)) {
        const found = enumOf(value);
        if (found) return found;
      }
      return undefined;
    };
    expect([...(enumOf(schema) ?? [])].sort()).toEqual([...FEATURE_NAMES].sort());
    const config = readFileSync(new URL("../../generator/config/define-config.ts", import.meta.url), "utf8");
    const union = /features\?: Array<([^>]+)>/.exec(config)?.[1] ?? "";
    expect([...union.matchAll(/"([a-z-]+)"/g)].map((m) => m[1]).sort()).toEqual([...FEATURE_NAMES].sort());
  });
});
