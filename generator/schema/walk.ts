/**
 * Visits every subschema of a JSON Schema, knowing which keywords hold schemas (so a property *named*
 * "x-mcp-header" or an `enum` value shaped like a schema is never mistaken for one). Each visit gets
 * the chain of keywords that led to it, e.g. [["properties","a"],["items"]].
 */
import { NAMED_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from "./keywords.ts";

export type Step = [keyword: string, name?: string];
export type Visit = (schema: { [key: string]: unknown }, chain: Step[], pointer: string) => void;

// draft-07's `dependencies` is walked as named schemas: a list of names among them is not an object, skipped.
const NAMED_SCHEMAS = new Set([...NAMED_SCHEMA_KEYWORDS, "dependencies"]);

const isObject = (v: unknown): v is { [key: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const escapeSegment = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

export function walkSchema(root: unknown, visit: Visit): void {
  // Depth first in document order (children pushed in reverse), without recursion so depth is unbounded.
  const stack: Array<[unknown, Step[], string]> = [[root, [], ""]];
  while (stack.length > 0) {
    const [schema, chain, pointer] = stack.pop()!;
    if (!isObject(schema)) continue;
    visit(schema, chain, pointer);
    const children: Array<[unknown, Step[], string]> = [];
    for (const [keyword, value] of Object.entries(schema)) {
      const at = `${pointer}/${escapeSegment(keyword)}`;
      if (NAMED_SCHEMAS.has(keyword) && isObject(value)) {
        for (const [name, sub] of Object.entries(value))
          children.push([sub, [...chain, [keyword, name]], `${at}/${escapeSegment(name)}`]);
      } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
        value.forEach((sub, i) => {
          children.push([sub, [...chain, [keyword, String(i)]], `${at}/${i}`]);
        });
      } else if (SINGLE_SCHEMA_KEYWORDS.has(keyword)) {
        children.push([value, [...chain, [keyword]], at]);
      }
    }
    stack.push(...children.reverse());
  }
}
