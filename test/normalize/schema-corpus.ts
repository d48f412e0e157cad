/**
 * Argument corpora for comparing two schemas by what they accept: instances built from a schema (each
 * property, `required`, enums, bounds, a branch of each anyOf/oneOf, the members of allOf, `$ref`s to
 * `$defs`), then mutated (a required property left out, wrong types, nulls, extra properties, values
 * outside an enum, numbers at and past their bounds, strings too short and too long), at the top level
 * and one object down. Deterministic (seeded), so a failure reproduces.
 */
import type { ValidateFunction } from "ajv";
import { seededRandom } from "../../bench/lib/seeded-random.ts";
import { compactSchema, PROPERTY_DESCRIPTION_LENGTH } from "../../generator/normalize/compact-schema.ts";
import { servedOutputSchema } from "../../generator/normalize/loosen-output.ts";
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats, OWN_PROPERTIES } from "../../generator/schema/ajv.ts";

type Schema = { [key: string]: unknown };
const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

const FORMATS: Record<string, string> = {
  "date-time": "2024-05-06T07:08:09Z",
  date: "2024-05-06",
  time: "07:08:09Z",
  email: "a@example.com",
  uri: "https://example.com/a",
  "uri-reference": "/a/b",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  ipv4: "192.0.2.1",
  hostname: "example.com",
};

class Builder {
  readonly #next: () => number;
  readonly #root: Schema;
  constructor(root: Schema, seed: number) {
    this.#root = root;
    this.#next = seededRandom(seed);
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#next() * list.length)];
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  resolve(node: unknown, seen = 0): Schema | undefined {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/") && seen < 20) {
      let target: unknown = this.#root;
      for (const part of node.$ref.slice(2).split("/"))
        target = isObject(target)
          ? target[decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~")]
          : undefined;
      const { $ref: _ref, ...rest } = node;
      const resolved = this.resolve(target, seen + 1);
      return resolved ? { ...resolved, ...rest } : rest;
    }
    return node;
  }
  /** A value meant to be valid (best effort: the comparison needs variety, not certainty). */
  value(schema: unknown, depth = 0): unknown {
    const node = this.resolve(schema);
    if (!node || depth > 5) return this.chance(0.5) ? null : {};
    if ("const" in node) return node.const;
    if (Array.isArray(node.enum) && node.enum.length > 0) return this.pick(node.enum);
    for (const key of ["anyOf", "oneOf"]) {
      const list = node[key];
      if (Array.isArray(list) && list.length > 0) {
        const { [key]: _list, ...rest } = node;
        return this.merge(this.value(rest, depth + 1), this.value(this.pick(list), depth + 1));
      }
    }
    if (Array.isArray(node.allOf)) {
      const { allOf, ...rest } = node;
      return allOf.reduce(
        (acc: unknown, member) => this.merge(acc, this.value(member, depth + 1)),
        this.value(rest, depth + 1),
      );
    }
    const type = Array.isArray(node.type) ? this.pick(node.type) : node.type;
    if (type === undefined && isObject(node.properties)) return this.object(node, depth);
    switch (type) {
      case "object":
        return this.object(node, depth);
      case "array": {
        const min = typeof node.minItems === "number" ? node.minItems : 0;
        const count = Math.min(3, min + Math.floor(this.#next() * 3));
        return Array.from({ length: count }, () => this.value(node.items, depth + 1));
      }
      case "string": {
        if (typeof node.format === "string" && FORMATS[node.format]) return FORMATS[node.format];
        const min = typeof node.minLength === "number" ? node.minLength : 0;
        const max = typeof node.maxLength === "number" ? node.maxLength : 100;
        return (this.chance(0.3) ? "" : "abc").padEnd(this.chance(0.3) ? max : min, "x").slice(0, max);
      }
      case "integer":
      case "number": {
        const min = typeof node.minimum === "number" ? node.minimum : 0;
        const max = typeof node.maximum === "number" ? node.maximum : min + 100;
        // At the bounds now and then, so that their mutations (one more, one less) cross them.
        const n = this.pick([min, max, min + Math.floor(this.#next() * Math.max(1, max - min))]);
        return type === "number" && this.chance(0.3) ? n + 0.5 : n;
      }
      case "boolean":
        return this.chance(0.5);
      case "null":
        return null;
      default:
        return this.pick(["text", 1, true, null, {}]);
    }
  }
  object(node: Schema, depth: number): Schema {
    const out: Schema = {};
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    if (isObject(node.properties))
      for (const [name, sub] of Object.entries(node.properties))
        if (required.has(name) || this.chance(0.7)) out[name] = this.value(sub, depth + 1);
    for (const name of required) if (typeof name === "string" && !(name in out)) out[name] = "abc";
    return out;
  }
  merge(a: unknown, b: unknown): unknown {
    return isObject(a) && isObject(b) ? { ...a, ...b } : b === undefined ? a : b;
  }
}

/** Changes of one value: each a likely way to break (or still meet) a schema. */
function variantsOf(value: unknown): unknown[] {
  const out: unknown[] = [null, "text", "", "x".repeat(300), 0, -1, 1.5, 1e21, true, [], {}, [value]];
  if (typeof value === "number") out.push(value + 1, value - 1, -value, value * 1000, String(value));
  if (typeof value === "string") out.push(`${value}-not-in-enum`, `${value}x`, value.slice(1), value.toUpperCase(), 42);
  return out;
}

/** A corpus for `schema`: built instances, their mutations, and plain non-objects. */
export function corpusOf(schema: Schema, { seed = 1, instances = 6, cap = 600 } = {}): unknown[] {
  const builder = new Builder(schema, seed);
  const corpus: unknown[] = [null, [], "text", 1, {}, { unexpected_extra: 1 }];
  for (let i = 0; i < instances; i++) {
    const valid = builder.value(schema);
    corpus.push(valid);
    if (!isObject(valid)) continue;
    corpus.push({ ...valid, unexpected_extra: "x" });
    for (const [key, value] of Object.entries(valid)) {
      const { [key]: _gone, ...without } = valid;
      corpus.push(without);
      for (const variant of variantsOf(value)) corpus.push({ ...valid, [key]: variant });
      if (isObject(value)) {
        for (const [inner, innerValue] of Object.entries(value)) {
          const { [inner]: _innerGone, ...innerWithout } = value;
          corpus.push({ ...valid, [key]: innerWithout });
          for (const variant of variantsOf(innerValue).slice(0, 6))
            corpus.push({ ...valid, [key]: { ...value, [inner]: variant } });
        }
        corpus.push({ ...valid, [key]: { ...value, unexpected_extra: 1 } });
      }
      if (Array.isArray(value) && value.length > 0)
        corpus.push({ ...valid, [key]: [...value, ...variantsOf(value[0])] });
    }
  }
  // Spread evenly when over the cap, so every part of the corpus is represented.
  if (corpus.length <= cap) return corpus;
  const step = corpus.length / cap;
  return Array.from({ length: cap }, (_, i) => corpus[Math.floor(i * step)]);
}

/** A validator as the generated package's ajv would build it (not strict, formats, own properties). */
export function validatorOf(schema: Schema): ValidateFunction {
  const draft07 = typeof schema.$schema === "string" && schema.$schema.includes("draft-07");
  const dialect = draft07 ? "draft-07" : "2020-12";
  let ajv = instances.get(dialect);
  if (!ajv) {
    const options = { ...OWN_PROPERTIES, strict: false, allErrors: false, logger: false } as const;
    ajv = addFormats(draft07 ? new AjvDraft07(options) : new Ajv2020(options));
    instances.set(dialect, ajv);
  }
  // Compiled schemas are cached by ajv; a schema has no $id, so any number of them can share one ajv.
  return ajv.compile(schema);
}

const instances = new Map<string, AnyAjv>();

/** Instances on which two validators disagree (each with both verdicts), the first `limit` of them. */
export function disagreements(
  a: ValidateFunction,
  b: ValidateFunction,
  corpus: unknown[],
  limit = 3,
): Array<{ instance: unknown; a: boolean; b: boolean }> {
  const found: Array<{ instance: unknown; a: boolean; b: boolean }> = [];
  for (const instance of corpus) {
    const va = a(instance) === true;
    const vb = b(instance) === true;
    if (va !== vb) found.push({ instance, a: va, b: vb });
    if (found.length >= limit) break;
  }
  return found;
}

export type Pair = { name: string; inputSchema: Schema; outputSchema?: Schema };
const options = { descriptionLength: PROPERTY_DESCRIPTION_LENGTH };

/** Every tool: identical input verdicts on its corpus; output instances the original accepts, accepted. */
export function checkSameMeaning(tools: Pair[], corpus = { instances: 6, cap: 600 }): string[] {
  const problems: string[] = [];
  for (const tool of tools) {
    const compacted = compactSchema(tool.inputSchema, options);
    const found = disagreements(
      validatorOf(tool.inputSchema),
      validatorOf(compacted),
      corpusOf(tool.inputSchema, corpus),
    );
    if (found.length > 0) problems.push(`${tool.name} input: ${JSON.stringify(found[0]).slice(0, 400)}`);
    if (!tool.outputSchema) continue;
    const original = validatorOf(tool.outputSchema);
    const served = validatorOf(servedOutputSchema(tool.outputSchema, options));
    const rejected = corpusOf(tool.outputSchema, corpus).filter((instance) => original(instance) && !served(instance));
    if (rejected.length > 0) problems.push(`${tool.name} output: ${JSON.stringify(rejected[0]).slice(0, 400)}`);
  }
  return problems;
}
