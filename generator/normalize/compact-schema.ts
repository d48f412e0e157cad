/**
 * Tool schemas as tools/list serves them, made smaller without changing which instances they accept:
 * every token of tools/list is paid for in an agent's context, on every request. Reductions, all of
 * them meaning-neutral for validation (annotations or structure only):
 * - `$defs` no longer reached from the root are dropped; one reached by exactly one `$ref` (and not
 *   part of a cycle) takes that reference's place. Recursive and shared definitions stay.
 * - a `title` that only repeats its property's (or definition's) name goes, compared without case,
 *   spaces, `_` and `-`; so does one whose every word the node's description already says.
 * - `description`s lose Markdown link targets (`[text](url)` → `text`), keep their first sentence, and
 *   are cut at `descriptionLength` characters on a word boundary, ending in "…".
 * - a large subschema written out more than once becomes one `$defs` entry (share-repeats.ts).
 * - `examples` keep their first entry; `deprecated`/`readOnly`/`writeOnly: false` (the defaults) go.
 * Types and validators are still compiled from the full IR schemas (shared definitions, whole
 * descriptions in doc comments); this is only what the model reads.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import type { JsonSchema } from "../ir.ts";
import { mapChildren } from "../schema/map-children.ts";
import { shareRepeats } from "./share-repeats.ts";

export type CompactOptions = {
  /** Where a schema's descriptions are cut, in characters. */
  descriptionLength: number;
};

/** Property descriptions are cut here unless the spec's own cap (OpenAPI `maxDescriptionLength`) is lower. */
export const PROPERTY_DESCRIPTION_LENGTH = 200;

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords that change how references resolve: a schema using them keeps its `$defs` as they are. */
const RESOLUTION = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor"];
const FALSE_BY_DEFAULT = ["deprecated", "readOnly", "writeOnly"];
/** Deeper than this, a schema is left as it is (no stack overflow on a hostile document). */
const MAX_DEPTH = 200;

/** Whether every word of `title` occurs in `text` (case-insensitively): a title the description already says. */
function saysAll(text: string, title: string): boolean {
  const words = new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const stem = (w: string) => w.replace(/(es|s)$/, "");
  const stems = new Set([...words].map(stem));
  return (title.toLowerCase().match(/[a-z0-9]+/g) ?? []).every((w) => words.has(w) || stems.has(stem(w)));
}

/** "Pull Request", "pull_request" and "pull-request" all repeat "pullRequest". */
const squash = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");

/** Markdown links keep their text: a model cannot follow the URL, and URLs cost many tokens each. */
export function withoutLinkTargets(text: string): string {
  return text.replace(/\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))+\)/g, "$1");
}

/** The first sentence of a text, when it has more than one (a period, then space and a capital). */
export function firstSentence(text: string): string {
  const end = /[.!?](?=\s+["'`([*]?[A-Z])/g;
  for (let match = end.exec(text); match; match = end.exec(text)) {
    const sentence = text.slice(0, match.index + 1);
    // "e.g. The", "i.e. A", "approx. Ten": not the end of a sentence.
    if (sentence.length >= 16 && !/\b(e\.g|i\.e|etc|vs|approx|incl|cf)\.$/i.test(sentence)) return sentence;
  }
  return text;
}

/** A text cut to `max` characters at a word boundary (when one is near), ending in an ellipsis. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The node's own annotations reduced (a title repeating its name: reduceOwnKeepIdentity). */
function reduceOwn(node: JsonSchema, options: CompactOptions): JsonSchema {
  const out: JsonSchema = { ...node };
  if (typeof out.title === "string" && typeof out.description === "string" && saysAll(out.description, out.title))
    delete out.title;
  if (typeof out.description === "string")
    out.description = cutText(firstSentence(withoutLinkTargets(out.description)), options.descriptionLength);
  if (Array.isArray(out.examples) && out.examples.length > 1) out.examples = out.examples.slice(0, 1);
  for (const keyword of FALSE_BY_DEFAULT) if (out[keyword] === false) delete out[keyword];
  return out;
}

/** Annotations reduced everywhere; memoized per object, as an OpenAPI API shares definitions across tools. */
function reduceAll(schema: unknown, options: CompactOptions, memo: WeakMap<object, unknown>, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return schema;
  const known = memo.get(schema);
  if (known) return known;
  const reduced = mapChildren(schema, (sub, keyword, name) => {
    const named = keyword === "properties" || keyword === "$defs" || keyword === "definitions" ? name : undefined;
    return isObject(sub) ? reduceAll(reduceOwnKeepIdentity(sub, named), options, memo, depth + 1) : sub;
  });
  const out = reduceOwn(reduced, options);
  memo.set(schema, out);
  return out;
}

/** Title handling needs the name a node sits under, which only its parent knows. */
function reduceOwnKeepIdentity(sub: JsonSchema, name: string | undefined): JsonSchema {
  if (name === undefined || typeof sub.title !== "string" || squash(sub.title) !== squash(name)) return sub;
  const { title: _title, ...rest } = sub;
  return rest;
}

const memos = new Map<number, WeakMap<object, unknown>>();

/**
 * Forgets what was compacted. A memo lives as long as the schemas it is keyed by, which the model holds
 * through the whole render: a large API's reduced copies of every subschema, twice where a tool was
 * compacted again with shorter descriptions, would stay with them (issue 32). Called once every tool is listed.
 */
export function forgetCompactions(): void {
  memos.clear();
}

/** A schema with the same meaning, smaller: see the file comment. Never changes its argument. */
export function compactSchema(schema: JsonSchema, options: CompactOptions): JsonSchema {
  let memo = memos.get(options.descriptionLength);
  if (!memo) {
    memo = new WeakMap();
    memos.set(options.descriptionLength, memo);
  }
  const { $defs, ...root } = schema;
  const reducedRoot = reduceAll(root, options, memo) as JsonSchema;
  if (!isObject($defs)) return shareRepeats($defs === undefined ? reducedRoot : { ...reducedRoot, $defs });
  const defs: JsonSchema = {};
  for (const [name, def] of Object.entries($defs)) {
    setOwn(defs, name, isObject(def) ? reduceAll(reduceOwnKeepIdentity(def, name), options, memo) : def);
  }
  return shareRepeats(inlineDefs(reducedRoot, defs));
}

/** The `$defs` name a local reference names whole, or, for `#/$defs/a/properties/b`, `a` as pinned. */
function refTarget(ref: unknown): { name: string; whole: boolean } | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return undefined;
  const [segment, ...rest] = ref.slice("#/$defs/".length).split("/");
  let name: string;
  try {
    name = decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
  return { name, whole: rest.length === 0 };
}

/**
 * Every local reference under `node`, looked for in every value, not only in schema keywords: a `$ref`
 * in an `enum` value is counted too, which at worst keeps a definition that could have gone. False when
 * something there changes how references resolve.
 */
function refsOf(node: unknown, found: Array<{ name: string; whole: boolean }>, depth = 0): boolean {
  if (Array.isArray(node)) return node.every((item) => refsOf(item, found, depth + 1));
  if (!isObject(node)) return true;
  if (depth > MAX_DEPTH || RESOLUTION.some((k) => Object.hasOwn(node, k))) return false;
  const target = refTarget(node.$ref);
  if (target) found.push(target);
  return Object.values(node).every((value) => refsOf(value, found, depth + 1));
}

/** `$ref` beside other keywords means both apply in 2019-09 and later; before, the others are ignored. */
function modernDialect(root: JsonSchema): boolean {
  return root.$schema === undefined || /\/(2019-09|2020-12)\//.test(String(root.$schema));
}

/** Drops unreached definitions and puts each one used once, not recursively, in its reference's place. */
function inlineDefs(root: JsonSchema, defs: JsonSchema): JsonSchema {
  const refsFrom = new Map<string, Array<{ name: string; whole: boolean }>>();
  const rootRefs: Array<{ name: string; whole: boolean }> = [];
  let plain = refsOf(root, rootRefs);
  for (const [name, def] of Object.entries(defs)) {
    const found: Array<{ name: string; whole: boolean }> = [];
    plain = refsOf(def, found) && plain;
    refsFrom.set(name, found);
  }
  // Anchors, ids or dynamic references: where a reference lands is not this simple, so nothing moves.
  if (!plain) return { ...root, $defs: defs };
  // What the root reaches, and how often each definition is referenced from what is reached.
  const reached = new Set<string>();
  const uses = new Map<string, number>();
  const pinned = new Set<string>();
  const queue = [rootRefs];
  while (queue.length > 0) {
    for (const { name, whole } of queue.pop()!) {
      if (!Object.hasOwn(defs, name)) continue;
      uses.set(name, (uses.get(name) ?? 0) + 1);
      if (!whole) pinned.add(name);
      if (!reached.has(name)) {
        reached.add(name);
        queue.push(refsFrom.get(name) ?? []);
      }
    }
  }
  const recursive = (start: string): boolean => {
    const seen = new Set<string>();
    const stack = (refsFrom.get(start) ?? []).map((r) => r.name);
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) return true;
      if (seen.has(name) || !Object.hasOwn(defs, name)) continue;
      seen.add(name);
      stack.push(...(refsFrom.get(name) ?? []).map((r) => r.name));
    }
    return false;
  };
  const inline = new Set(
    modernDialect(root)
      ? [...reached].filter(
          (name) => uses.get(name) === 1 && !pinned.has(name) && isObject(defs[name]) && !recursive(name),
        )
      : [],
  );
  const expand = (node: unknown, depth: number): unknown => {
    if (!isObject(node) || depth > MAX_DEPTH) return node;
    const target = refTarget(node.$ref);
    if (target?.whole && inline.has(target.name)) {
      const { $ref: _ref, ...siblings } = node;
      const def = expand(defs[target.name], depth + 1) as JsonSchema;
      if (Object.keys(siblings).length === 0) return def;
      // Beside a reference, keywords apply together with it: allOf says exactly that.
      return expand({ ...siblings, allOf: [...(Array.isArray(siblings.allOf) ? siblings.allOf : []), def] }, depth);
    }
    return mapChildren(node, (sub) => expand(sub, depth + 1));
  };
  const kept = [...reached].filter((name) => !inline.has(name)).sort();
  const out = expand(root, 0) as JsonSchema;
  if (kept.length === 0) return out;
  const keptDefs: JsonSchema = {};
  // Original order, so output does not depend on the traversal.
  for (const name of Object.keys(defs)) if (kept.includes(name)) setOwn(keptDefs, name, expand(defs[name], 0));
  return { ...out, $defs: keptDefs };
}
