/**
 * inputSchema and outputSchema: each must describe an object, be in a dialect we know, and compile.
 * A schema that does not compile is reported at the keyword that breaks it, not at the schema's root.
 */
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "../ir.ts";
import { childPointer } from "../json-pointer.ts";
import { ajvFor, dialectOf } from "../schema-dialect.ts";
import type { Rule } from "./rule.ts";

export const schemaRules: Rule = (server, report) => {
  for (const tool of server.tools) {
    for (const field of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[field];
      if (schema === undefined) continue;
      const at = `${tool.loc.pointer}/${field}`;
      if (schema.type !== "object") {
        const found = schema.type === undefined ? "has no type" : `has type ${JSON.stringify(schema.type)}`;
        report(
          "SCHEMA_NOT_OBJECT",
          schema.type === undefined ? at : `${at}/type`,
          `${field} of tool '${tool.name}' ${found}`,
        );
      }
      const dialect = dialectOf(schema);
      if (typeof dialect === "object") {
        report(
          "SCHEMA_UNKNOWN_DIALECT",
          `${at}/$schema`,
          `${field} of tool '${tool.name}' declares unknown $schema '${dialect.unknown}'`,
        );
        continue;
      }
      for (const problem of compileProblems(schema, dialect)) {
        report("SCHEMA_INVALID", at + problem.pointer, `${field} of tool '${tool.name}': ${problem.message}`);
      }
    }
  }
};

type Problem = { pointer: string; message: string };

/** Meta-schema violations (one per place, the most specific), else whatever stops compilation. */
export function compileProblems(schema: JsonSchema, dialect: "2020-12" | "draft-07"): Problem[] {
  const ajv = ajvFor(dialect);
  if (!ajv.validateSchema(schema)) return metaSchemaProblems(ajv.errors ?? []);
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const ref = /can't resolve reference (\S+)/.exec(message)?.[1];
    return [{ pointer: (ref && findKeyword(schema, "$ref", ref)) || "", message: firstLine(message) }];
  } finally {
    ajv.removeSchema(schema);
  }
}

function metaSchemaProblems(errors: ErrorObject[]): Problem[] {
  const byPlace = new Map<string, ErrorObject>();
  for (const error of errors) {
    const current = byPlace.get(error.instancePath);
    // anyOf/oneOf failures only summarise the branch errors reported beside them.
    if (!current || (isSummary(current) && !isSummary(error))) byPlace.set(error.instancePath, error);
  }
  return [...byPlace.values()].map((error) => {
    const allowed = error.params.allowedValues as unknown[] | undefined;
    const detail = allowed ? ` (${allowed.map((v) => JSON.stringify(v)).join(", ")})` : "";
    const keyword = error.instancePath.split("/").at(-1) || "schema";
    return { pointer: error.instancePath, message: `'${keyword}' ${error.message ?? "is invalid"}${detail}` };
  });
}

function isSummary(error: ErrorObject): boolean {
  return error.keyword === "anyOf" || error.keyword === "oneOf";
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}

/** Pointer (relative to the schema) of the first `keyword: value` pair, searched depth first. */
function findKeyword(node: unknown, keyword: string, value: string, pointer = ""): string | undefined {
  if (node === null || typeof node !== "object") return undefined;
  for (const [key, child] of Object.entries(node)) {
    const here = childPointer(pointer, key);
    if (key === keyword && child === value) return here;
    const found = findKeyword(child, keyword, value, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
