/** Following a local `$ref` to the definition it names whole, for the stages that read IR schemas themselves. */
import type { JsonSchema } from "../ir.ts";

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The definition a `#/$defs/<name>` reference (`prefix`: `#/definitions/` for draft-07) names whole, from `defs`;
 * anything else is not followed: a pointer deeper than one name, a malformed escape, an inherited key.
 */
export function namedDefinition(ref: unknown, defs: JsonSchema, prefix = "#/$defs/"): JsonSchema | undefined {
  if (typeof ref !== "string" || !ref.startsWith(prefix)) return undefined;
  const rest = ref.slice(prefix.length);
  if (rest.includes("/")) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(rest).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
  const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
  return isObject(def) || typeof def === "boolean" ? (def as JsonSchema) : undefined;
}
