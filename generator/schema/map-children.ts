/**
 * A copy of one schema node with its subschemas mapped, knowing which keywords hold schemas (as
 * walk.ts does): a property *named* "items" or an `enum` value shaped like a schema is never taken
 * for one. Own keys only: a `__proto__` property stays a property.
 */
import { setOwn } from "../../runtime/protocol/codec.ts";
import { NAMED_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from "./keywords.ts";

type Schema = { [key: string]: unknown };
const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** `node` copied, each subschema replaced by what `child` gives for it. */
export function mapChildren(node: Schema, child: (sub: unknown, keyword: string, name?: string) => unknown): Schema {
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (NAMED_SCHEMA_KEYWORDS.has(keyword) && isObject(value)) {
      const mapped: Schema = {};
      for (const [name, sub] of Object.entries(value)) setOwn(mapped, name, child(sub, keyword, name));
      setOwn(out, keyword, mapped);
    } else if (keyword === "dependencies" && isObject(value)) {
      // draft-07: each entry is a schema or a list of property names.
      const mapped: Schema = {};
      for (const [name, sub] of Object.entries(value))
        setOwn(mapped, name, isObject(sub) ? child(sub, keyword, name) : sub);
      setOwn(out, keyword, mapped);
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      setOwn(
        out,
        keyword,
        value.map((sub) => child(sub, keyword)),
      );
    } else if (SINGLE_SCHEMA_KEYWORDS.has(keyword)) {
      setOwn(out, keyword, child(value, keyword));
    } else setOwn(out, keyword, value);
  }
  return out;
}
