/**
 * Compiles validators into CommonJS modules of ajv standalone code: job 0 the shared definitions, once
 * (`validators/shared.cjs`), each further job a chunk of tools' validators that calls into it. Runs in
 * the main thread and in workers (validators-worker.ts), so the plan is plain data, and every thread
 * takes its next job from one shared counter (claim).
 */

import { _, type CodeKeywordDefinition, type KeywordCxt } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { callRef } from "ajv/dist/vocabularies/core/ref.js";
import type { JsonSchema } from "../ir.ts";
import { SHARED_DEFINITION_BASE } from "../normalize/tool-schemas.ts";
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats, OWN_PROPERTIES } from "../schema/ajv.ts";
import type { Dialect } from "../schema/dialect.ts";
import { walkSchema } from "../schema/walk.ts";

/** Where a chunk finds the shared definitions: beside it. */
export const SHARED_MODULE = "shared.cjs";

export type ChunkJob = {
  /** Validator name, schema (without $id) and dialect of each validator in the chunk. */
  entries: Array<{ name: string; schema: JsonSchema; dialect: Dialect }>;
};

/** The chunks, and the shared definitions (by id, each with its `$id`) they refer to. */
export type CompilePlan = { jobs: ChunkJob[]; defs: Record<string, JsonSchema> };

/**
 * A unit of work as the threads receive it: the shared definitions or one chunk, as JSON text parsed only
 * by the thread that compiles it (a worker sent objects held a copy of every schema of the API; text is a
 * quarter of the size).
 */
export type Unit = { kind: "shared" | "chunk"; text: string };

/** The plan's units: the shared definitions first (when there are any: the largest unit), then each chunk. */
export function unitsOf(plan: CompilePlan): Unit[] {
  const chunks = plan.jobs.map((job): Unit => ({ kind: "chunk", text: JSON.stringify(job) }));
  if (Object.keys(plan.defs).length === 0) return chunks;
  return [{ kind: "shared", text: JSON.stringify(plan.defs) }, ...chunks];
}

export function compileUnit(unit: Unit): string {
  const parsed = JSON.parse(unit.text);
  return unit.kind === "shared"
    ? compileShared(parsed as Record<string, JsonSchema>)
    : compileChunk(parsed as ChunkJob);
}

/** The unit indices this thread should compile: each taken from the shared counter, so no two threads
 * take the same one and none waits for another to hand it work. */
export function* claim(counter: Int32Array, count: number): Generator<number> {
  for (let index = Atomics.add(counter, 0, 1); index < count; index = Atomics.add(counter, 0, 1)) yield index;
}

const protoSafe = (json: string) => json.replace(/([{,]\s*)"__proto__"(\s*):/g, '$1["__proto__"]$2:');

type Standalone = (ajv: AnyAjv, refs: Record<string, string>) => string;
const standaloneCode: Standalone =
  (standaloneModule as unknown as { default?: Standalone }).default ?? (standaloneModule as unknown as Standalone);

const OPTIONS = {
  ...OWN_PROPERTIES,
  code: { source: true, esm: true, lines: true, optimize: false },
  allErrors: true,
  strict: false,
  logger: false,
} as const;

/**
 * A chunk's reference to a shared definition: `{ $ref: <shared uri> }` becomes `{ [SHARED_KEYWORD]: id }`,
 * compiled as ajv compiles a `$ref` to another schema (callRef: the call, its errors, what it evaluated),
 * to the function `shared.cjs` exports. Each definition is compiled once for the package, not once per
 * chunk that uses it (Microsoft Graph's chunks repeated them 11 times: 190 of 300 MB of validator code).
 */
const SHARED_KEYWORD = "x-mcpgen-shared";
const SHARED_PATH = `./${SHARED_MODULE}`;
const exportName = (id: string) => `d${id.replace(/[^\w$]/g, "_")}`;
const notCalledWhileCompiling = () => false;
const sharedReference: CodeKeywordDefinition = {
  keyword: SHARED_KEYWORD,
  schemaType: "string",
  code(cxt: KeywordCxt) {
    const id = cxt.schema as string;
    const code = _`require(${SHARED_PATH})[${exportName(id)}]`;
    callRef(cxt, cxt.gen.scopeValue("func", { key: id, ref: notCalledWhileCompiling, code }));
  },
};
/** validators/shared.cjs: every shared definition's validator, exported by its id. */
function compileShared(defs: Record<string, JsonSchema>): string {
  // Definitions refer to each other: each stays one function instead of being pasted into its callers.
  const ajv = addFormats(new Ajv2020({ ...OPTIONS, inlineRefs: false }));
  const exports: Record<string, string> = {};
  for (const [id, def] of Object.entries(defs)) {
    ajv.addSchema(def);
    exports[exportName(id)] = def.$id as string;
  }
  return commonJs([scoped(ajv, "dialect202012", exports)]);
}

/** A chunk's module, without the do-not-edit header (added by the caller: the code does not depend on the spec's path). */
function compileChunk(job: ChunkJob): string {
  const scopes: Scope[] = [];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    const entries = job.entries.filter((entry) => entry.dialect === dialect);
    if (entries.length === 0) continue;
    const ajv = addFormats(dialect === "2020-12" ? new Ajv2020(OPTIONS) : new AjvDraft07(OPTIONS));
    if (dialect === "2020-12") ajv.addKeyword(sharedReference);
    for (const { name, schema } of entries) ajv.addSchema(referToShared(schema), name);
    const scope = dialect === "2020-12" ? "dialect202012" : "dialectDraft07";
    scopes.push(scoped(ajv, scope, Object.fromEntries(entries.map(({ name }) => [name, name]))));
  }
  return commonJs(scopes);
}

/** Rewrites, in place (the schema was parsed for this compile), each `$ref` to a shared definition. */
function referToShared(schema: JsonSchema): JsonSchema {
  walkSchema(schema, (sub) => {
    if (typeof sub.$ref !== "string" || !sub.$ref.startsWith(SHARED_DEFINITION_BASE)) return;
    sub[SHARED_KEYWORD] = sub.$ref.slice(SHARED_DEFINITION_BASE.length);
    delete sub.$ref;
  });
  return schema;
}

/** One dialect's standalone code in a scope of its own (each dialect's code declares validate10, schema11...). */
function scoped(ajv: AnyAjv, scope: string, exports: Record<string, string>): Scope {
  const names = Object.keys(exports);
  const code = standaloneCode(ajv, exports)
    .replace(/^"use strict";/, "")
    .replace(/export const ([\w$]+) = /g, "const $1 = ")
    // ajv writes each schema as a JSON object literal (`const schema31 = {...};`, one line), where a
    // `"__proto__":` key would set a prototype: such keys become computed, own properties.
    .replace(/^(const schema\d+ = )(.*);$/gm, (_, head: string, json: string) => `${head}${protoSafe(json)};`);
  return {
    text: `const ${scope} = (() => {\n${code}\nreturn { ${names.join(", ")} };\n})();`,
    exported: names.map((name) => `  ${name}: ${scope}.${name},`),
  };
}

type Scope = { text: string; exported: string[] };

/** The module: its scopes, then one export object naming every validator. */
function commonJs(scopes: Scope[]): string {
  const exported = scopes.flatMap((scope) => scope.exported);
  return [
    '"use strict";',
    ...scopes.map((scope) => scope.text),
    `module.exports = {\n${exported.join("\n")}\n};`,
    "",
  ].join("\n");
}
