/**
 * An outputSchema as tools/list serves it. A client checks structuredContent against it, a model reads
 * it to know what comes back; it does not have to be the whole response schema, only one that
 * everything the server sends still satisfies. So a response schema that, compacted (compact-schema.ts),
 * is still larger than OUTPUT_SCHEMA_BUDGET characters is served as a looser skeleton: the property
 * names and types down to the deepest level that fits the budget (at least the top level's), with
 * `enum`/`const`, `items`, `allOf`/`anyOf` (a `oneOf` becomes `anyOf`) and `additionalProperties`; below
 * it each schema keeps only its `type`. What a skeleton leaves out only ever loosens it: annotations,
 * `required`, string/number/array bounds, `format`, `pattern`, and the keywords whose meaning turns
 * round when what is inside them is loosened (`not`, `if`/`then`/`else`, `contains` with its counts,
 * `unevaluated*`, `dependent*`). Every instance valid under the original is valid under the skeleton
 * (test/normalize/compact-schema.test.ts checks that on corpora). The server's own output validator is
 * still compiled from the whole schema.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema } from "../ir.ts";
import { namedDefinition } from "../schema/named-definition.ts";
import { type CompactOptions, compactSchema } from "./compact-schema.ts";

/** Compacted response schemas up to this many characters of JSON are served as they are (~300 tokens). */
export const OUTPUT_SCHEMA_BUDGET = 1200;
/** Deeper skeletons are not tried (each level can multiply the size). */
const MAX_LEVELS = 8;

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

export function servedOutputSchema(
  schema: JsonSchema,
  options: CompactOptions,
  budget = OUTPUT_SCHEMA_BUDGET,
): JsonSchema {
  const compacted = compactSchema(schema, options);
  if (JSON.stringify(compacted).length <= budget) return compacted;
  const defs = isObject(schema.$defs) ? schema.$defs : {};
  let best = skeleton(schema, 1, defs);
  let text = JSON.stringify(best);
  for (let levels = 2; levels <= MAX_LEVELS; levels++) {
    const next = skeleton(schema, levels, defs);
    const nextText = JSON.stringify(next);
    if (nextText.length > budget || nextText === text) break;
    best = next;
    text = nextText;
  }
  // MCP wants an object schema at the root, whatever the skeleton made of it.
  return isObject(best) ? { ...best, type: "object" } : { type: "object" };
}

/** The `type` an instance valid under `node` must have, when the schema says so directly or via allOf. */
function typeOf(node: unknown, defs: JsonSchema, seen: Set<unknown> = new Set()): unknown {
  if (!isObject(node) || seen.has(node)) return undefined;
  seen.add(node);
  if (typeof node.type === "string" || Array.isArray(node.type)) return node.type;
  const ref = namedDefinition(node.$ref, defs);
  if (ref) {
    const found = typeOf(ref, defs, seen);
    if (found !== undefined) return found;
  }
  if (Array.isArray(node.allOf)) {
    for (const member of node.allOf) {
      const found = typeOf(member, defs, seen);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * `node` loosened, `levels` deep: each property, item or additional-property schema is one level down;
 * allOf/anyOf members and references stay on the level (`chain`: the definitions followed on this
 * level, so a reference cycle through allOf ends).
 */
function skeleton(
  node: unknown,
  levels: number,
  defs: JsonSchema,
  chain: ReadonlySet<JsonSchema> = new Set(),
): unknown {
  if (node === false) return false;
  if (!isObject(node)) return {};
  if (levels <= 0) {
    const type = typeOf(node, defs);
    return type === undefined ? {} : { type };
  }
  const down = (sub: unknown) => skeleton(sub, levels - 1, defs);
  const same = (sub: unknown) => skeleton(sub, levels, defs, chain);
  const out: JsonSchema = {};
  const parts: unknown[] = [];
  if (Object.hasOwn(node, "$ref")) {
    const def = namedDefinition(node.$ref, defs);
    if (def && !chain.has(def)) parts.push(skeleton(def, levels, defs, new Set([...chain, def])));
  }
  for (const keyword of ["type", "enum", "const"]) if (Object.hasOwn(node, keyword)) out[keyword] = node[keyword];
  if (isObject(node.properties)) {
    const properties: JsonSchema = {};
    for (const [name, sub] of Object.entries(node.properties)) setOwn(properties, name, down(sub));
    out.properties = properties;
  }
  if (isObject(node.patternProperties)) {
    const patterns: JsonSchema = {};
    for (const [pattern, sub] of Object.entries(node.patternProperties)) setOwn(patterns, pattern, down(sub));
    out.patternProperties = patterns;
  }
  if (node.additionalProperties !== undefined) out.additionalProperties = down(node.additionalProperties);
  if (Array.isArray(node.prefixItems)) out.prefixItems = node.prefixItems.map(down);
  if (node.items !== undefined) out.items = Array.isArray(node.items) ? node.items.map(down) : down(node.items);
  if (node.additionalItems !== undefined) out.additionalItems = down(node.additionalItems);
  if (Array.isArray(node.allOf)) parts.push(...node.allOf.map(same));
  const alternatives = [node.anyOf, node.oneOf].filter(Array.isArray);
  for (const list of alternatives) {
    // Loosened, two alternatives may both match: oneOf would then refuse what it accepted, anyOf does not.
    const members = uniqueJson(list.map(same));
    if (!members.some((m) => isObject(m) && Object.keys(m).length === 0)) parts.push({ anyOf: members });
  }
  const constraints = parts.filter((p) => !(isObject(p) && Object.keys(p).length === 0));
  if (constraints.length === 0) return out;
  if (Object.keys(out).length === 0 && constraints.length === 1) return constraints[0];
  return { ...out, allOf: constraints };
}

function uniqueJson(list: unknown[]): unknown[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
