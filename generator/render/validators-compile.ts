/**
 * Compiles one chunk of validators into a CommonJS module of ajv standalone code. Runs in the main
 * thread and in workers (validators-worker.ts), so the plan is plain data, and every thread takes its
 * next chunk from one shared counter (claim).
 */
import standaloneModule from "ajv/dist/standalone/index.js";
import type { JsonSchema } from "../ir.ts";
import { Ajv2020, AjvDraft07, type AnyAjv, addFormats, OWN_PROPERTIES } from "../schema/ajv.ts";
import type { Dialect } from "../schema/dialect.ts";

export type ChunkJob = {
  /** Validator name, schema (without $id) and dialect of each validator in the chunk. */
  entries: Array<{ name: string; schema: JsonSchema; dialect: Dialect }>;
  /** The shared OpenAPI definitions (plan.defs) the entries reference by `$id` (2020-12). */
  defIds: string[];
};

/** Every chunk, and the definitions they share, each once (chunks repeat them: GitHub ~2.7x). */
export type CompilePlan = { jobs: ChunkJob[]; defs: Record<string, JsonSchema> };

/**
 * The plan as workers receive it: each job and each definition as its JSON text, parsed only by the
 * thread that compiles it. A worker sent the plan as objects held a copy of every schema of the API
 * (Microsoft Graph: gigabytes); text is a quarter of the size, and a chunk's objects live while it compiles.
 */
export type PlanText = { jobs: string[]; defs: Record<string, string> };

export function planText(plan: CompilePlan): PlanText {
  const defs: Record<string, string> = {};
  for (const id of Object.keys(plan.defs)) defs[id] = JSON.stringify(plan.defs[id]);
  return { jobs: plan.jobs.map((job) => JSON.stringify(job)), defs };
}

/** compileChunk for the plan's text: parses the job and the definitions it uses. */
export function compileChunkText(plan: PlanText, index: number): string {
  const job = JSON.parse(plan.jobs[index]) as ChunkJob;
  const defs: Record<string, JsonSchema> = {};
  for (const id of job.defIds) defs[id] = JSON.parse(plan.defs[id]) as JsonSchema;
  return compileChunk({ jobs: [job], defs }, 0);
}

/** The chunk indices this thread should compile: each taken from the shared counter, so no two threads
 * take the same one and none waits for another to hand it work. */
export function* claim(counter: Int32Array, count: number): Generator<number> {
  for (let index = Atomics.add(counter, 0, 1); index < count; index = Atomics.add(counter, 0, 1)) yield index;
}

const protoSafe = (json: string) => json.replace(/([{,]\s*)"__proto__"(\s*):/g, '$1["__proto__"]$2:');

type Standalone = (ajv: AnyAjv, refs: Record<string, string>) => string;
const standaloneCode: Standalone =
  (standaloneModule as unknown as { default?: Standalone }).default ?? (standaloneModule as unknown as Standalone);

/** The chunk's module without the do-not-edit header (added by the caller: the code does not depend on the spec's path). */
export function compileChunk(plan: CompilePlan, index: number): string {
  const job = plan.jobs[index];
  const defs = job.defIds.map((id) => plan.defs[id]);
  const options = {
    ...OWN_PROPERTIES,
    code: { source: true, esm: true, lines: true, optimize: false },
    allErrors: true,
    strict: false,
    logger: false,
    // Shared definitions stay one function each instead of being pasted into every caller.
    inlineRefs: defs.length === 0,
  } as const;
  const scopes: string[] = [];
  const exported: string[] = [];
  for (const dialect of ["2020-12", "draft-07"] as const) {
    const entries = job.entries.filter((entry) => entry.dialect === dialect);
    if (entries.length === 0) continue;
    const ajv = addFormats(dialect === "2020-12" ? new Ajv2020(options) : new AjvDraft07(options));
    if (dialect === "2020-12") for (const def of defs) ajv.addSchema(def);
    for (const { name, schema } of entries) ajv.addSchema(schema, name);
    const names = entries.map((entry) => entry.name);
    const code = standaloneCode(ajv, Object.fromEntries(names.map((name) => [name, name])))
      .replace(/^"use strict";/, "")
      .replace(/export const (\w+) = /g, "const $1 = ")
      // ajv writes each schema as a JSON object literal (`const schema31 = {...};`, one line), where a
      // `"__proto__":` key would set a prototype: such keys become computed, own properties.
      .replace(/^(const schema\d+ = )(.*);$/gm, (_, head: string, json: string) => `${head}${protoSafe(json)};`);
    // Each dialect's code declares the same internal names (validate10, schema11...): one scope each.
    const scope = dialect === "2020-12" ? "dialect202012" : "dialectDraft07";
    scopes.push(`const ${scope} = (() => {\n${code}\nreturn { ${names.join(", ")} };\n})();`);
    exported.push(...names.map((name) => `  ${name}: ${scope}.${name},`));
  }
  return ['"use strict";', ...scopes, `module.exports = {\n${exported.join("\n")}\n};`, ""].join("\n");
}
