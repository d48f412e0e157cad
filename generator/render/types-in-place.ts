/**
 * json-schema-to-typescript's `compile`, step for step, but for its first one: `compile` deep-copies its
 * input so as not to change it, and the combined document render/types.ts hands it is already a copy made
 * for it alone. Microsoft Graph's is the largest structure of a generate (every tool schema of the API):
 * held twice, it set the run's peak memory (issue 32). The steps are the library's own modules, so the
 * output is the same; the version is pinned in package.json, and every golden package's types.ts is
 * compiled this way.
 */
import type { JSONSchema, Options } from "json-schema-to-typescript";
import { DEFAULT_OPTIONS } from "json-schema-to-typescript";
import { generate } from "json-schema-to-typescript/dist/src/generator.js";
import { link } from "json-schema-to-typescript/dist/src/linker.js";
import { normalize, normalizeNullableRefs } from "json-schema-to-typescript/dist/src/normalizer.js";
import { optimize } from "json-schema-to-typescript/dist/src/optimizer.js";
import { validateOptions } from "json-schema-to-typescript/dist/src/optionValidator.js";
import { nameAnonymousRecursiveTypes, parse } from "json-schema-to-typescript/dist/src/parser.js";
import { dereference } from "json-schema-to-typescript/dist/src/resolver.js";
import { validate } from "json-schema-to-typescript/dist/src/validator.js";
import { collectGarbage } from "../heap-growth.ts";

/** `compile(schema, name, options)` without `format` (mcpgen formats the types itself); `schema` is used up. */
export async function compileInPlace(schema: JSONSchema, name: string, options: Partial<Options>): Promise<string> {
  if (options.format !== false) throw new Error("compileInPlace does not format");
  validateOptions(options);
  // compile merges with lodash's deep merge; mcpgen's options are flat but for $refOptions, whose default
  // is empty, so a spread merges them the same.
  const merged: Options = { ...DEFAULT_OPTIONS, ...options };
  if (!merged.cwd.endsWith("/")) merged.cwd += "/";
  normalizeNullableRefs(schema);
  const { dereferencedPaths, dereferencedSchema } = await dereference(schema, merged);
  const linked = link(dereferencedSchema);
  const errors = validate(linked, name);
  // compile prints these and throws an empty ValidationError: here they are the error's message.
  if (errors.length > 0) throw new Error(errors.join("\n"));
  const normalized = normalize(linked, dereferencedPaths, name, merged);
  const processed = new Map();
  const usedNames = new Set<string>();
  const parsed = parse(normalized, merged, undefined, processed, usedNames);
  nameAnonymousRecursiveTypes(parsed, processed, dereferencedPaths, usedNames);
  // The parsed types are all the last steps read: the schemas (Graph's: the largest structure of the run)
  // go before the output is built, as it was used up. Its callers still hold the root, not what it held.
  processed.clear();
  for (const key of Object.keys(schema)) delete (schema as Record<string, unknown>)[key];
  collectGarbage();
  return generate(optimize(parsed, merged), merged);
}
