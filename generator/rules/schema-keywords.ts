/**
 * Keys of a schema that are not keywords of its dialect. JSON Schema ignores unknown keywords, so
 * `propertes:` or `requird:` would make a tool accept anything without a word. Extension keys start with
 * `x-` (x-mcp-header). OpenAPI schemas carry many vendor keys, so there only the two shapes that are
 * never a vendor's keyword are reported: a key with no value, and a key that reads like prose; each once,
 * where the document has it.
 */

import { closest } from "../diagnostics/spelling.ts";
import { dialectOf, vocabulary } from "../schema/dialect.ts";
import { walkSchema } from "../schema/walk.ts";
import { childPointer } from "../source/json-pointer.ts";
import type { Rule } from "./rule.ts";
import { documentPointer } from "./schemas.ts";

/**
 * A key that reads like text rather than a keyword: it holds whitespace, or ends in sentence punctuation
 * (`e.g.`, `Paris,`). No JSON Schema, OpenAPI or vendor keyword does either.
 */
export function looksLikeProse(key: string): boolean {
  return /\s/.test(key) || /[.,;:!?]$/.test(key);
}

const YAML_CAUSE =
  "in a YAML flow mapping ({ ... }) an unquoted comma ends a value and the rest becomes a key of its own";

export const schemaKeywordRules: Rule = (server, report) => {
  const reported = new Set<string>(); // OpenAPI: document places already reported (tools share schemas)
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
          const isNull = node[key] === null;
          const isProse = looksLikeProse(key);
          if (server.origin !== "spec" && !isNull && !isProse) return; // a vendor's keyword
          const inTool = childPointer(`${tool.loc.pointer}/${field}${pointer}`, key);
          const source = server.sourceOf && documentPointer(schema, childPointer(pointer, key), server.sourceOf);
          if (server.origin !== "spec" && source !== undefined && reported.has(source)) return;
          if (source !== undefined) reported.add(source);
          const at = server.origin !== "spec" && source !== undefined ? source : inTool;
          const where = `${field} of tool '${tool.name}'`;
          if (isNull) {
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
          if (isProse) {
            report("SCHEMA_KEY_PROSE", at, `'${key}' in ${where} reads like text, not a JSON Schema keyword`, {
              hint: `${YAML_CAUSE}: quote the text; remove the key if it is not meant to be there`,
              at: "key",
            });
            return;
          }
          const guess = closest(key, keywords);
          const hint = guess
            ? `did you mean '${guess}'?`
            : "JSON Schema ignores unknown keywords; prefix an extension with 'x-'";
          report("SCHEMA_UNKNOWN_KEYWORD", inTool, `'${key}' is not a JSON Schema ${dialect} keyword (${where})`, {
            hint,
            at: "key",
          });
        });
      });
    }
  }
};
