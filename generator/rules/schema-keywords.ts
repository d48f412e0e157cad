/**
 * Keys of a spec-language schema that are not keywords of its dialect. JSON Schema ignores unknown
 * keywords, so `propertes:` or `requird:` would make a tool accept anything without a word. Extension
 * keys start with `x-` (x-mcp-header). OpenAPI input is left alone: its schemas carry many vendor keys.
 */
import { childPointer } from "../json-pointer.ts";
import { dialectOf, vocabulary } from "../schema-dialect.ts";
import { walkSchema } from "../schema-walk.ts";
import { closest } from "../spelling.ts";
import type { Rule } from "./rule.ts";

export const schemaKeywordRules: Rule = (server, report) => {
  if (server.origin !== "spec") return;
  for (const tool of server.tools) {
    for (const field of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[field];
      if (schema === undefined) continue;
      const dialect = dialectOf(schema);
      if (typeof dialect === "object") continue; // SCHEMA_UNKNOWN_DIALECT says it
      const keywords = vocabulary(dialect);
      const known = new Set(keywords);
      walkSchema(schema, (node, _chain, pointer) => {
        const keys = Object.keys(node);
        keys.forEach((key, index) => {
          if (known.has(key) || key.startsWith("x-")) return;
          const at = childPointer(`${tool.loc.pointer}/${field}${pointer}`, key);
          const where = `${field} of tool '${tool.name}'`;
          if (node[key] === null) {
            // `{ description: City name, e.g. Paris }` in YAML: the comma ends the value, and the rest
            // becomes a key of its own with no value.
            const before = keys[index - 1];
            const text = before !== undefined && typeof node[before] === "string" ? node[before] : undefined;
            const hint =
              text !== undefined
                ? `it looks like text split at a comma: quote it, ${before}: ${JSON.stringify(`${text}, ${key}`)}`
                : "quote text that contains commas; remove the key if it is not meant to be there";
            report("SCHEMA_NULL_KEYWORD", at, `'${key}' in ${where} is a key with no value`, { hint, at: "key" });
            return;
          }
          const guess = closest(key, keywords);
          const hint = guess
            ? `did you mean '${guess}'?`
            : "JSON Schema ignores unknown keywords; prefix an extension with 'x-'";
          report("SCHEMA_UNKNOWN_KEYWORD", at, `'${key}' is not a JSON Schema ${dialect} keyword (${where})`, {
            hint,
            at: "key",
          });
        });
      });
    }
  }
};
