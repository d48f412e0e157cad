/**
 * Checks a spec-language document against generator/schema/mcpgen.schema.json (the same schema editors
 * use) and turns ajv's errors into our diagnostics: unknown keys with a "did you mean", missing fields,
 * wrong types, disallowed values. Returns whether the document is structurally sound.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Report } from "../diagnostics/diagnostic.ts";
import { closest } from "../diagnostics/spelling.ts";
import { progress } from "../progress.ts";
import { Ajv2020, OWN_PROPERTIES } from "../schema/ajv.ts";
import { childPointer, readablePath } from "../source/json-pointer.ts";

export const SPEC_SCHEMA_PATH = new URL("../schema/mcpgen.schema.json", import.meta.url);

let validator: ValidateFunction | undefined;

function specValidator(): ValidateFunction {
  validator ??= new Ajv2020({
    ...OWN_PROPERTIES,
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
  }).compile(JSON.parse(readFileSync(SPEC_SCHEMA_PATH, "utf8")));
  return validator;
}

export function checkStructure(value: unknown, report: Report): boolean {
  progress.stage("checking the spec's structure");
  const validate = specValidator();
  if (validate(value)) return true;
  for (const error of validate.errors ?? []) translate(error, report);
  return false;
}

const TYPE_NAMES: Record<string, string> = { object: "a mapping", array: "a list", string: "a string" };

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

function translate(error: ErrorObject, report: Report): void {
  const at = error.instancePath;
  const where = readablePath(at);
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(error.params.additionalProperty);
      const known = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      const guess = closest(key, known);
      const hint = guess ? `did you mean '${guess}'?` : `allowed keys here: ${known.map((k) => `'${k}'`).join(", ")}`;
      report("SPEC_UNKNOWN_KEY", childPointer(at, key), `unknown key '${key}' in ${where}`, { hint, at: "key" });
      return;
    }
    case "required": {
      const field = String(error.params.missingProperty);
      report("SPEC_MISSING_FIELD", at, `${where} is missing required field '${field}'`, {
        hint: `add '${field}:' here`,
        at: "key",
      });
      return;
    }
    case "type": {
      const expected = String(error.params.type);
      report(
        "SPEC_WRONG_TYPE",
        at,
        `${where} must be ${TYPE_NAMES[expected] ?? `a ${expected}`}, found ${describe(error.data)}`,
      );
      return;
    }
    case "enum": {
      const allowed = (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
      report("SPEC_INVALID_VALUE", at, `${where} is ${describe(error.data)}; allowed: ${allowed}`, {
        hint: `use one of ${allowed}`,
      });
      return;
    }
    case "if":
    case "anyOf":
      // An `if` failure is always accompanied by the concrete error from its `then`; an anyOf here
      // only wraps completion hints (enum or any string), so the concrete error says it all.
      return;
    default:
      report("SPEC_INVALID_VALUE", at, `${where} ${error.message ?? "is invalid"}`);
  }
}
