/**
 * json-schema-to-typescript cannot re-enter a schema it is still reading when that schema is an
 * implicit intersection (an `allOf`, `anyOf` or `oneOf` beside its own `type`/`properties`): its cache
 * holds an empty placeholder there, and it throws "Cannot read properties of undefined (reading 'push')".
 * Inheritance through `allOf` that loops back (Bing: Thing = allOf [Response], Response has an `Action`
 * property, Action = allOf [Thing]) does exactly that, in whatever order the definitions come.
 *
 * The cycle is broken at a named type: each definition on a `$ref` cycle that mixes a combinator with
 * keywords of its own becomes `allOf: [<its combinators>, <its own keywords>]` under the same title,
 * which means the same (a JSON Schema is the conjunction of its keywords) and is a plain intersection,
 * which the library's cache handles.
 */
import type { JsonSchema } from "../ir.ts";
import { walkSchema } from "../schema/walk.ts";
import { valueAt } from "../source/json-pointer.ts";

const COMBINATORS = ["allOf", "anyOf", "oneOf"];
/** Keywords that describe rather than constrain; they stay on the named type. */
const ANNOTATIONS = new Set(["title", "description", "deprecated", "$comment", "examples", "readOnly", "writeOnly"]);

/** Rewrites, in place, the definitions of `root` on a reference cycle that the library would crash on. */
export function splitCyclicIntersections(root: JsonSchema): number {
  const targets = new Map<string, JsonSchema>();
  const edges = new Map<string, string[]>();
  const refsOf = (node: JsonSchema): string[] => {
    const found = new Set<string>();
    walkSchema(node, (sub) => {
      if (typeof sub.$ref !== "string" || !sub.$ref.startsWith("#/")) return;
      found.add(sub.$ref);
      if (!targets.has(sub.$ref)) {
        const target = valueAt(root, safeDecode(sub.$ref.slice(1)));
        if (isObject(target)) targets.set(sub.$ref, target);
      }
    });
    return [...found];
  };
  refsOf(root);
  // A Map's iteration also visits the targets added while it runs, so every target gets its edges.
  for (const [ref, node] of targets) if (!edges.has(ref)) edges.set(ref, refsOf(node));
  let split = 0;
  for (const ref of onCycles(edges)) {
    const node = targets.get(ref);
    if (node && mixesCombinator(node)) {
      splitDefinition(node);
      split++;
    }
  }
  return split;
}

/** A combinator beside keywords of its own: what the library reads as an implicit intersection. */
function mixesCombinator(node: JsonSchema): boolean {
  const keys = Object.keys(node).filter((k) => !ANNOTATIONS.has(k));
  return keys.length > 1 && keys.some((k) => COMBINATORS.includes(k));
}

function splitDefinition(node: JsonSchema): void {
  const own: JsonSchema = {};
  const members: unknown[] = Array.isArray(node.allOf) ? [...node.allOf] : [];
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) || key === "allOf") continue;
    own[key] = value;
    delete node[key];
  }
  node.allOf = [...members, own];
}

/** The nodes on some cycle of the graph: Tarjan's strongly connected components, without recursion. */
function onCycles(edges: Map<string, string[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result = new Set<string>();
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const next = edges.get(frame.node) ?? [];
      if (frame.i < next.length) {
        const to = next[frame.i++];
        if (!edges.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (edges.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) for (const m of component) result.add(m);
      }
    }
  }
  return result;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
