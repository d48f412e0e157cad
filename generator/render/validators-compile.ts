/**
 * Compiles validators into CommonJS modules of ajv standalone code: the shared definitions, once, in one
 * or more parts (`validators/shared.cjs`, or `shared-<n>.cjs` when there are several), and each chunk of
 * tools' validators, which calls into them. Runs in the main thread and in workers (validators-worker.ts),
 * so the plan is plain data, and every thread takes its next unit from one shared counter (claim).
 */

import { _, type Code, type CodeKeywordDefinition, type KeywordCxt } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { callRef } from "ajv/dist/vocabularies/core/ref.js";
import type { JsonSchema } from "../ir.ts";
import { SHARED_DEFINITION_BASE } from "../normalize/tool-schemas.ts";
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats, OWN_PROPERTIES } from "../schema/ajv.ts";
import type { Dialect } from "../schema/dialect.ts";
import { walkSchema } from "../schema/walk.ts";

/** Which module exports each shared definition a unit calls (by id): `shared.cjs`, `shared-1.cjs`... */
export type Modules = Record<string, string>;

export type ChunkJob = {
  /** Validator name, schema (without $id) and dialect of each validator in the chunk. */
  entries: Array<{ name: string; schema: JsonSchema; dialect: Dialect }>;
  /** The module of every shared definition the entries call. */
  modules: Modules;
};

/** A part of the shared definitions: its own (by id, each with its `$id`), and where those of other parts are. */
export type SharedPart = { defs: Record<string, JsonSchema>; modules: Modules };

/** The chunks, and the parts of the shared definitions they refer to. */
export type CompilePlan = { jobs: ChunkJob[]; parts: SharedPart[] };

/** A unit of work: a part of the shared definitions or one chunk, as JSON text. */
export type Unit = { kind: "shared" | "chunk"; text: string };

/**
 * The units as every thread reads them: their JSON as UTF-8 in one SharedArrayBuffer, parsed only by the
 * thread that compiles the unit. Workers once got objects, and held a copy of every schema of the API;
 * then text, still a copy per thread, and two bytes a character for a text with any past Latin-1 (most
 * real APIs'): Microsoft Graph's units were 27 MB in each thread. Now 14 MB in all, outside the heaps.
 */
export type PackedUnits = { kinds: Array<Unit["kind"]>; bytes: SharedArrayBuffer; ends: number[] };

/** The plan's units, packed: the shared definitions' parts first (the largest units), then each chunk. */
export function packedUnitsOf(plan: CompilePlan): PackedUnits {
  const kinds: Array<Unit["kind"]> = [];
  const texts: Buffer[] = [];
  for (const part of plan.parts) {
    kinds.push("shared");
    texts.push(Buffer.from(JSON.stringify(part)));
  }
  for (const job of plan.jobs) {
    kinds.push("chunk");
    texts.push(Buffer.from(JSON.stringify(job)));
  }
  const bytes = new SharedArrayBuffer(texts.reduce((sum, text) => sum + text.length, 0));
  const view = Buffer.from(bytes);
  const ends: number[] = [];
  let at = 0;
  for (const text of texts) {
    text.copy(view, at);
    at += text.length;
    ends.push(at);
  }
  return { kinds, bytes, ends };
}

/** Unit `index`'s JSON, as UTF-8 (a view, not a copy). */
export function unitBytes(units: PackedUnits, index: number): Buffer {
  const start = index === 0 ? 0 : units.ends[index - 1];
  return Buffer.from(units.bytes, start, units.ends[index] - start);
}

export function unitAt(units: PackedUnits, index: number): Unit {
  return { kind: units.kinds[index], text: unitBytes(units, index).toString("utf8") };
}

export function compileUnit(unit: Unit): string {
  const parsed = JSON.parse(unit.text);
  return unit.kind === "shared" ? compileShared(parsed as SharedPart) : compileChunk(parsed as ChunkJob);
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
 * A reference to a shared definition compiled elsewhere: `{ $ref: <shared uri> }` becomes
 * `{ [SHARED_KEYWORD]: id }`, compiled as ajv compiles a `$ref` to another schema (callRef: the call, its
 * errors, what it evaluated), to the function the definition's module exports. Each definition is
 * compiled once for the package, not once per chunk that uses it (Microsoft Graph's chunks repeated them
 * 11 times: 190 of 300 MB of validator code).
 */
const SHARED_KEYWORD = "x-mcpgen-shared";
const exportName = (id: string) => `d${id.replace(/[^\w$]/g, "_")}`;
const notCalledWhileCompiling = () => false;

/**
 * The keyword for a unit whose references are in `modules`. A chunk requires its modules as it loads
 * (none requires a chunk). A part calls the others through `lazyDefinition`, which requires the module
 * on the first call: parts refer to each other in cycles, and a module required while it is still
 * loading has exported nothing yet.
 */
function sharedReference(modules: Modules, lazy: boolean): CodeKeywordDefinition {
  return {
    keyword: SHARED_KEYWORD,
    schemaType: "string",
    code(cxt: KeywordCxt) {
      const id = cxt.schema as string;
      const path = `./${modules[id]}`;
      const code: Code = lazy
        ? _`${LAZY_DEFINITION}(${path}, ${exportName(id)})`
        : _`require(${path})[${exportName(id)}]`;
      callRef(cxt, cxt.gen.scopeValue("func", { key: id, ref: notCalledWhileCompiling, code }));
    },
  };
}

const LAZY_DEFINITION = _`lazyDefinition`;
/** What a part declares when it calls another part: the called validator's errors and evaluated properties pass through. */
const LAZY_DEFINITION_SOURCE = `function lazyDefinition(path, name) {
  let target;
  const load = () => (target ??= require(path)[name]);
  function validate(data, context) {
    const valid = load()(data, context);
    validate.errors = target.errors;
    return valid;
  }
  Object.defineProperty(validate, "evaluated", { get: () => load().evaluated });
  return validate;
}`;

/** A part of the shared definitions: each one's validator, exported by its id. */
function compileShared({ defs, modules }: SharedPart): string {
  // Definitions refer to each other: each stays one function instead of being pasted into its callers.
  const ajv = addFormats(new Ajv2020({ ...OPTIONS, inlineRefs: false }));
  ajv.addKeyword(sharedReference(modules, true));
  const exports: Record<string, string> = {};
  for (const [id, def] of Object.entries(defs)) {
    ajv.addSchema(referToShared(def, modules));
    exports[exportName(id)] = def.$id as string;
  }
  const scope = scoped(ajv, "dialect202012", exports);
  return commonJs([scope], Object.keys(modules).length > 0 ? [LAZY_DEFINITION_SOURCE] : []);
}

/** A chunk's module, without the do-not-edit header (added by the caller: the code does not depend on the spec's path). */
function compileChunk({ entries: all, modules }: ChunkJob): string {
  const scopes: Scope[] = [];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    const entries = all.filter((entry) => entry.dialect === dialect);
    if (entries.length === 0) continue;
    const ajv = addFormats(dialect === "2020-12" ? new Ajv2020(OPTIONS) : new AjvDraft07(OPTIONS));
    if (dialect === "2020-12") ajv.addKeyword(sharedReference(modules, false));
    for (const { name, schema } of entries) ajv.addSchema(referToShared(schema, modules), name);
    const scope = dialect === "2020-12" ? "dialect202012" : "dialectDraft07";
    scopes.push(scoped(ajv, scope, Object.fromEntries(entries.map(({ name }) => [name, name]))));
  }
  return commonJs(scopes);
}

/**
 * Rewrites, in place (the schema was parsed for this compile), each `$ref` to a shared definition that
 * `modules` places in another module.
 */
function referToShared(schema: JsonSchema, modules: Modules): JsonSchema {
  walkSchema(schema, (sub) => {
    if (typeof sub.$ref !== "string" || !sub.$ref.startsWith(SHARED_DEFINITION_BASE)) return;
    const id = sub.$ref.slice(SHARED_DEFINITION_BASE.length);
    if (!Object.hasOwn(modules, id)) return;
    sub[SHARED_KEYWORD] = id;
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

/** The module: its helpers, its scopes, then one export object naming every validator. */
function commonJs(scopes: Scope[], helpers: string[] = []): string {
  const exported = scopes.flatMap((scope) => scope.exported);
  return [
    '"use strict";',
    ...helpers,
    ...scopes.map((scope) => scope.text),
    `module.exports = {\n${exported.join("\n")}\n};`,
    "",
  ].join("\n");
}
