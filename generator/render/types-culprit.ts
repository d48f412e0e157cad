/**
 * When json-schema-to-typescript throws on the combined document, RENDER_FAILED must say which schema
 * broke it, not just the library's message. Each definition is compiled alone with the definitions it
 * reaches, smallest closure first; the first that fails is the culprit. Only runs after a failure, and
 * gives up after a bounded number of probes (a large API has thousands of definitions).
 */
import type { JsonSchema } from "../ir.ts";
import { walkSchema } from "../schema/walk.ts";

const MAX_PROBES = 300;
const LOCAL = /^#\/\$defs\/([^/]+)$/;

/** The key in `defs` of the smallest definition that still fails to compile, if one is found. */
export async function findCulprit(
  defs: Record<string, JsonSchema>,
  compileOne: (root: JsonSchema) => Promise<unknown>,
): Promise<string | undefined> {
  const direct = new Map<string, string[]>();
  for (const [key, def] of Object.entries(defs)) {
    const refs = new Set<string>();
    walkSchema(def, (node) => {
      const match = typeof node.$ref === "string" ? LOCAL.exec(node.$ref) : null;
      // Keys are type names and content ids, never percent-encoded.
      if (match && Object.hasOwn(defs, match[1])) refs.add(match[1]);
    });
    direct.set(key, [...refs]);
  }
  const closure = (key: string): string[] => {
    const seen = new Set([key]);
    const todo = [key];
    while (todo.length > 0) {
      for (const next of direct.get(todo.pop()!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        todo.push(next);
      }
    }
    return [...seen];
  };
  const probes = Object.keys(defs)
    .map((key) => ({ key, reach: closure(key) }))
    .sort((a, b) => a.reach.length - b.reach.length || (a.key < b.key ? -1 : 1))
    .slice(0, MAX_PROBES);
  for (const { key, reach } of probes) {
    const $defs = Object.fromEntries(reach.map((k) => [k, defs[k]]));
    try {
      await compileOne({ title: "Probe", type: "object", properties: { x: { $ref: `#/$defs/${key}` } }, $defs });
    } catch {
      return key;
    }
  }
  return undefined;
}
