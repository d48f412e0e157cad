/**
 * OpenAPI tools share component schemas: each tool's schema carries its own copy in `$defs` (MCP wants
 * self-contained schemas in tools/list), but types and validators must hold each component once, or
 * a GitHub-sized API gives tsc and ajv a thousand copies of the same objects. This finds the distinct
 * definitions (same name and content, and the same for what they reference) and rewrites every tool
 * schema to refer to them.
 */
import { sha256 } from "../hash.ts";
import type { JsonSchema } from "../ir.ts";
import { walkSchema } from "../schema/walk.ts";

export type SharedDef = { id: string; name: string; schema: JsonSchema };
/** `uses[i]`: the ids of every definition roots[i] needs, directly or through other definitions. */
export type Shared = { roots: JsonSchema[]; defs: SharedDef[]; uses: string[][] };

const LOCAL = /^#\/\$defs\/([^/]+)$/;

/** `refFor(id)` is how a rewritten schema points at a shared definition. */
export function shareDefs(schemas: JsonSchema[], refFor: (id: string) => string): Shared {
  const shared = new Map<string, SharedDef>();
  const uses: string[][] = [];
  const roots = schemas.map((schema) => {
    const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
    const ids = definitionIds(defs);
    const rewrite = (node: JsonSchema): JsonSchema => {
      const copy = structuredClone(node);
      walkSchema(copy, (sub) => {
        const match = typeof sub.$ref === "string" ? LOCAL.exec(sub.$ref) : null;
        const id = match ? ids.get(decodeURIComponent(match[1])) : undefined;
        if (id) sub.$ref = refFor(id);
      });
      return copy;
    };
    for (const [name, def] of Object.entries(defs)) {
      const id = ids.get(name)!;
      if (!shared.has(id)) shared.set(id, { id, name, schema: rewrite(def) });
    }
    // A tool schema is self-contained: its $defs already hold everything it reaches.
    uses.push(Object.keys(defs).map((name) => ids.get(name)!));
    const { $defs: _defs, ...root } = schema;
    return rewrite(root);
  });
  return { roots, defs: [...shared.values()], uses };
}

/** Types and validators both share the same tools' definitions: compute each tool's ids once. */
const idsByDefs = new WeakMap<object, Map<string, string>>();
/** A definition object is shared by every tool that reaches it (ConvertedDefs): hash and scan it once. */
const ownByDef = new WeakMap<object, { name: string; id: string; refs: string[] }>();

/** A content id per definition, refined a few rounds with the ids of what it references. */
function definitionIds(defs: Record<string, JsonSchema>): Map<string, string> {
  const known = idsByDefs.get(defs);
  if (known) return known;
  const refs = new Map<string, string[]>();
  let ids = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    let own = ownByDef.get(def);
    if (own?.name !== name) {
      const found = new Set<string>();
      walkSchema(def, (sub) => {
        const match = typeof sub.$ref === "string" ? LOCAL.exec(sub.$ref) : null;
        if (match) found.add(decodeURIComponent(match[1]));
      });
      own = { name, id: sha256(`${name}\0${withoutExamples(def)}`), refs: [...found].sort() };
      ownByDef.set(def, own);
    }
    ids.set(name, own.id);
    refs.set(name, own.refs);
  }
  for (let round = 0; round < 4; round++) {
    const next = new Map<string, string>();
    for (const [name, id] of ids)
      next.set(name, sha256(`${id}\0${(refs.get(name) ?? []).map((r) => ids.get(r)).join(",")}`));
    ids = next;
  }
  const result = new Map([...ids].map(([name, id]): [string, string] => [name, `d${id.slice(0, 16)}`]));
  idsByDefs.set(defs, result);
  return result;
}

const stripped = new Map<string, string>();

/** A definition's JSON without `examples`: requests keep examples and responses drop them, which must
 * not make the same component two types. Memoized, as a large API repeats each definition per tool. */
function withoutExamples(def: JsonSchema): string {
  const text = JSON.stringify(def);
  let out = stripped.get(text);
  if (out === undefined) {
    const copy = JSON.parse(text) as JsonSchema;
    walkSchema(copy, (node) => {
      delete node.examples;
    });
    out = JSON.stringify(copy);
    if (stripped.size > 100_000) stripped.clear();
    stripped.set(text, out);
  }
  return out;
}
