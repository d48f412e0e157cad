/**
 * inputSchema and outputSchema: each must describe an object, be in a dialect we know, and compile.
 * A schema that does not compile is reported at the keyword that breaks it, not at the schema's root.
 */
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "../ir.ts";
import type { AnyAjv } from "../schema/ajv.ts";
import { ajvFor, dialectOf } from "../schema/dialect.ts";
import { walkSchema } from "../schema/walk.ts";
import { childPointer, valueAt } from "../source/json-pointer.ts";
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
      if (field === "inputSchema") {
        walkSchema(schema, (node, _chain, pointer) => {
          const properties = node.properties;
          if (properties && typeof properties === "object" && Object.hasOwn(properties, "__proto__")) {
            report(
              "SCHEMA_PROTO_PROPERTY",
              `${at}${pointer}/properties/__proto__`,
              `inputSchema of tool '${tool.name}' has a property named '__proto__': servers refuse arguments holding that key`,
              { at: "key" },
            );
          }
        });
      }
      for (const problem of [...compileProblems(schema, dialect), ...refCycles(schema)]) {
        // From an OpenAPI document: said once, where the document has the schema, however many tools use it.
        const source = server.sourceOf && documentPointer(schema, problem.pointer, server.sourceOf);
        if (source !== undefined) report("SCHEMA_INVALID", source, problem.message);
        else report("SCHEMA_INVALID", at + problem.pointer, `${field} of tool '${tool.name}': ${problem.message}`);
      }
    }
  }
};

type Problem = { pointer: string; message: string };

/** The document pointer of the deepest schema object on `pointer` that came from the document, plus the rest. */
export function documentPointer(
  schema: JsonSchema,
  pointer: string,
  sourceOf: (node: object) => string | undefined,
): string | undefined {
  const parts = pointer.split("/").slice(1);
  for (let n = parts.length; n >= 0; n--) {
    const prefix = parts
      .slice(0, n)
      .map((p) => `/${p}`)
      .join("");
    const node = valueAt(schema, prefix);
    const source = typeof node === "object" && node !== null ? sourceOf(node) : undefined;
    if (source !== undefined) return source + pointer.slice(prefix.length);
  }
  return undefined;
}

/**
 * Meta-schema violations (one per place, the most specific), else what would stop ajv compiling it.
 * Compiling is the slow part of ajv (GitHub's 1,869 schemas: 5 s), and render compiles every schema
 * anyway, so only schemas whose references a JSON pointer cannot settle (`$id`, `$anchor`,
 * `$dynamicRef`, relative URIs) are compiled here. For the rest, the two things ajv rejects after the
 * meta-schema are checked directly: a `$ref` that points nowhere, and a regular expression that is not
 * valid with the `u` flag (ajv's default).
 */
export function compileProblems(schema: JsonSchema, dialect: "2020-12" | "draft-07"): Problem[] {
  const ajv = ajvFor(dialect);
  const meta = metaProblems(ajv, schema, dialect);
  if (meta.length > 0) return meta;
  const problems: Problem[] = [];
  let needsCompile = false;
  walkSchema(schema, (node, _chain, pointer) => {
    if ("$id" in node || "$anchor" in node || "$dynamicRef" in node || "$dynamicAnchor" in node) {
      needsCompile = true;
    }
    if (typeof node.$ref === "string") {
      if (!node.$ref.startsWith("#") || /^#[^/]/.test(node.$ref)) needsCompile = true;
      else if (resolveLocal(schema, node.$ref) === undefined) {
        problems.push({ pointer: `${pointer}/$ref`, message: `can't resolve reference ${node.$ref}` });
      }
    }
    if (typeof node.pattern === "string") {
      const bad = regexProblem(node.pattern);
      if (bad) problems.push({ pointer: `${pointer}/pattern`, message: bad });
    }
    if (typeof node.patternProperties === "object" && node.patternProperties !== null) {
      for (const key of Object.keys(node.patternProperties)) {
        const bad = regexProblem(key);
        if (bad) problems.push({ pointer: childPointer(`${pointer}/patternProperties`, key), message: bad });
      }
    }
  });
  return problems.length > 0 || !needsCompile ? problems : compiled(ajv, schema);
}

/** Meta-schema problems of each definition object, which OpenAPI tools share: checked once, not per tool. */
const definitionProblems = new WeakMap<object, Problem[]>();

/**
 * The meta-schema check. Under 2020-12 the meta-schema checks each `$defs` entry as a schema of its
 * own, so the root and each definition are checked apart, and a definition only once however many
 * tools carry it (GitHub's 1,869 schemas repeat 329 definitions ~40 times each).
 */
function metaProblems(ajv: AnyAjv, schema: JsonSchema, dialect: "2020-12" | "draft-07"): Problem[] {
  const check = (value: unknown) =>
    ajv.validateSchema(value as JsonSchema) ? [] : metaSchemaProblems(ajv.errors ?? []);
  const defs = schema.$defs;
  const separable =
    dialect === "2020-12" &&
    typeof defs === "object" &&
    defs !== null &&
    !Array.isArray(defs) &&
    Object.values(defs).every((def) => typeof def === "object" && def !== null && !Array.isArray(def));
  if (!separable) return check(schema);
  const { $defs: _defs, ...root } = schema;
  const problems = check(root);
  for (const [name, def] of Object.entries(defs as Record<string, object>)) {
    let found = definitionProblems.get(def);
    if (!found) {
      found = check(def);
      definitionProblems.set(def, found);
    }
    for (const problem of found) problems.push({ ...problem, pointer: childPointer("/$defs", name) + problem.pointer });
  }
  return problems;
}

function compiled(ajv: AnyAjv, schema: JsonSchema): Problem[] {
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

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return `pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`;
  }
}

/**
 * `$ref` cycles that never pass through an object or an array: `a: { $ref: "#/$defs/a" }`, or
 * `a: { anyOf: [{ type: string }, { $ref: "#/$defs/a" }] }`. ajv accepts them, but they describe no type
 * (TypeScript: "circularly references itself") and the type generator may recurse on them forever.
 * Recursion through a property or an item (a tree's `children`) is fine. One depth-first search over
 * the edges that add no structure ($ref and the members of anyOf/oneOf/allOf), without recursion.
 */
function refCycles(schema: JsonSchema): Problem[] {
  const pointers = new Map<object, string>();
  walkSchema(schema, (node, _chain, pointer) => {
    if (!pointers.has(node)) pointers.set(node, pointer);
  });
  const edges = (node: object): Array<[object, string]> => {
    const out: Array<[object, string]> = [];
    const at = pointers.get(node) ?? "";
    if (hasLocalRef(node)) {
      const target = resolveLocal(schema, node.$ref);
      if (typeof target === "object" && target !== null) out.push([target, `${at}/$ref`]);
    }
    for (const keyword of ["anyOf", "oneOf", "allOf"]) {
      const members = (node as Record<string, unknown>)[keyword];
      if (!Array.isArray(members)) continue;
      members.forEach((member, i) => {
        if (typeof member === "object" && member !== null) out.push([member, `${at}/${keyword}/${i}`]);
      });
    }
    return out;
  };
  const problems: Problem[] = [];
  const state = new Map<object, "open" | "done">();
  for (const start of pointers.keys()) {
    if (state.has(start)) continue;
    state.set(start, "open");
    const stack = [{ node: start as object, next: edges(start), i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.i >= top.next.length) {
        state.set(top.node, "done");
        stack.pop();
        continue;
      }
      const [target, at] = top.next[top.i++];
      const seen = state.get(target);
      if (seen === "open") {
        // Only a $ref can point back up the tree, so `at` is the $ref that closes the cycle.
        const ref = JSON.stringify((top.node as { $ref?: unknown }).$ref);
        problems.push({
          pointer: at,
          message: `'$ref' ${ref} closes a cycle that never passes through an object or array`,
        });
      } else if (seen === undefined) {
        state.set(target, "open");
        stack.push({ node: target, next: edges(target), i: 0 });
      }
    }
  }
  return problems;
}

function hasLocalRef(node: unknown): node is { $ref: string } {
  return (
    typeof node === "object" &&
    node !== null &&
    typeof (node as { $ref?: unknown }).$ref === "string" &&
    (node as { $ref: string }).$ref.startsWith("#")
  );
}

/** A local `#/...` reference (JSON pointer, percent-encoded) inside the schema; anchors are not followed. */
function resolveLocal(root: JsonSchema, ref: string): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return valueAt(root, pointer);
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
