/**
 * The reverse of inlining, for what a document repeats inline: a large subschema written out more than
 * once in one tool schema (Stripe spells its 300 merchant categories out for `allowed_categories`,
 * `blocked_categories` and each spending limit) becomes one `$defs` entry, referenced where each copy
 * was. A `$ref` to a schema validates exactly as that schema, so nothing accepted changes.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema } from "../ir.ts";
import { mapChildren } from "../schema/map-children.ts";

/** Copies shorter than this (characters of JSON) are not worth a `$ref` (which costs about 40). */
export const MIN_SHARED_LENGTH = 240;

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
/** Where these appear, references do not simply land on `#/$defs/...`: such a schema is left alone. */
const RESOLUTION = /"\$(id|anchor|dynamicAnchor|dynamicRef|recursiveRef|recursiveAnchor)"\s*:/;

export function shareRepeats(schema: JsonSchema): JsonSchema {
  const whole = JSON.stringify(schema);
  const shapeOf = shaper();
  if (whole.length < 2 * MIN_SHARED_LENGTH || RESOLUTION.test(whole)) return schema;
  if (schema.$schema !== undefined && !/\/(2019-09|2020-12)\//.test(String(schema.$schema))) return schema;
  const { $defs, ...root } = schema;
  const defs: JsonSchema = isObject($defs) ? { ...$defs } : {};
  // How often each large subschema occurs, by its JSON, and the property name of its first copy.
  const counts = new Map<number, { count: number; hint: string }>();
  const count = (node: unknown, hint: string) => {
    if (!isObject(node)) return;
    const { id, length } = shapeOf(node);
    if (length < MIN_SHARED_LENGTH) return;
    const seen = counts.get(id);
    if (seen) seen.count++;
    else counts.set(id, { count: 1, hint });
    mapChildren(node, (sub, keyword, name) => {
      count(sub, keyword === "properties" && name ? name : hint);
      return sub;
    });
  };
  count(root, "shared");
  for (const [name, def] of Object.entries(defs)) count(def, name);
  const names = new Map<number, string>();
  const taken = new Set(Object.keys(defs));
  // A copy inside every copy of a larger repeated subschema goes with it: it is shared only when it also
  // occurs elsewhere (more often than what it sits in).
  const mark = (node: unknown, outer: number) => {
    if (!isObject(node)) return;
    const { id } = shapeOf(node);
    const seen = counts.get(id);
    if (!seen) return;
    if (seen.count >= 2 && seen.count > outer && !names.has(id)) {
      const cleaned = seen.hint.replace(/[^A-Za-z0-9_-]+/g, "_") || "shared";
      // Not "__proto__" or "constructor": a definition name is a key of plain objects downstream.
      const base = cleaned in Object.prototype ? `${cleaned}_` : cleaned;
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      taken.add(name);
      names.set(id, name);
    }
    mapChildren(node, (sub) => {
      mark(sub, seen.count);
      return sub;
    });
  };
  mark(root, 1);
  for (const def of Object.values(defs)) mark(def, 1);
  if (names.size === 0) return schema;
  // Top down, so the largest repeated copy is shared and what is inside it stays in its one definition.
  const added: JsonSchema = {};
  const replace = (node: unknown, top: boolean): unknown => {
    if (!isObject(node)) return node;
    const { id, length } = shapeOf(node);
    const name = names.get(id);
    if (name !== undefined && !top) {
      if (!Object.hasOwn(added, name)) setOwn(added, name, replace(node, true));
      return { $ref: `#/$defs/${name}` };
    }
    return length < MIN_SHARED_LENGTH ? node : mapChildren(node, (sub) => replace(sub, false));
  };
  const newRoot = replace(root, false) as JsonSchema;
  const newDefs: JsonSchema = {};
  for (const [name, def] of Object.entries(defs)) setOwn(newDefs, name, replace(def, true));
  return { ...newRoot, $defs: { ...newDefs, ...added } };
}

/** A subtree's identity and the length of its JSON text: equal ids exactly when the JSON texts are equal. */
type Shape = { id: number; length: number };

/**
 * Shapes of subtrees, each worked out once from its children's (hash-consing): JSON.stringify of every
 * node instead cost the size of each subtree times its depth, quadratic in deep schemas (Microsoft
 * Graph: 20 s). A node's key holds its keys and its children's ids, so it is as long as its own entries.
 */
function shaper(): (node: unknown) => Shape {
  const ids = new Map<string, number>();
  const known = new WeakMap<object, Shape>();
  const intern = (key: string, length: number): Shape => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return { id, length };
  };
  // What JSON.stringify writes for a value, or undefined where it writes nothing (an undefined property).
  const shape = (value: unknown): Shape | undefined => {
    if (typeof value !== "object" || value === null) {
      const text = JSON.stringify(value);
      return text === undefined ? undefined : intern(`=${text}`, text.length);
    }
    const seen = known.get(value);
    if (seen) return seen;
    const parts: string[] = [];
    let length = 2;
    if (Array.isArray(value)) {
      for (const item of value) {
        const sub = shape(item) ?? intern("=null", 4);
        parts.push(String(sub.id));
        length += sub.length;
      }
    } else {
      for (const key of Object.keys(value)) {
        const sub = shape((value as JsonSchema)[key]);
        if (sub === undefined) continue;
        const name = JSON.stringify(key);
        parts.push(`${name}:${sub.id}`);
        length += name.length + 1 + sub.length;
      }
    }
    length += Math.max(0, parts.length - 1);
    const result = intern(Array.isArray(value) ? `[${parts.join(",")}]` : `{${parts.join(",")}}`, length);
    known.set(value, result);
    return result;
  };
  return (node) => shape(node) ?? intern("=null", 4);
}
