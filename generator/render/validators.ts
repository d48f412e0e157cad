/**
 * Validators: every tool's input and output schema compiled ahead of time into ajv standalone code, so
 * a server compiles no schema. The code is split into chunks, `src/validators/<n>.cjs`, that
 * `src/validators.ts` loads on the first call of one of their tools: start-up parses none of it (a
 * GitHub-sized API has megabytes of validator code). The definitions tools share are compiled once, into
 * `src/validators/shared.cjs` (or, for many, parts `shared-<n>.cjs`), which a chunk loads with itself.
 * Parts and chunks compile in parallel worker threads.
 */
import { availableParallelism } from "node:os";
import { sha256 } from "../hash.ts";
import type { JsonSchema } from "../ir.ts";
import type { Model } from "../normalize/normalize.ts";
import { SHARED_DEFINITION_BASE } from "../normalize/tool-schemas.ts";
import { contentCache } from "../output/content-cache.ts";
import { dialectOf } from "../schema/dialect.ts";
import { walkSchema } from "../schema/walk.ts";
import { header } from "./ts.ts";
import { dataLiteral } from "./ts-data-literal.ts";
import {
  type ChunkJob,
  type CompilePlan,
  compileUnit,
  type Modules,
  type PackedUnits,
  packedUnitsOf,
  type SharedPart,
  unitAt,
  unitBytes,
} from "./validators-compile.ts";
import { compileInWorkers } from "./validators-pool.ts";

/** Tools per chunk: small enough that a first call loads little, large enough that shared definitions
 * are not compiled into too many chunks (each chunk holds the ones its tools use). */
const TOOLS_PER_CHUNK = 100;

/** The chunk holding the validators of the tool at `index` in the model. */
export function chunkOfTool(index: number): number {
  return Math.floor(index / TOOLS_PER_CHUNK);
}

/** `files`: the modules of src/validators/, in order (`shared.cjs`, `0.cjs`, `1.cjs`...), as `file` made them. */
export type RenderedValidators<F> = { module: string; files: F[] };

/**
 * `file`: what a module becomes, given its file name and code; called as each is compiled (or read from
 * the cache), so the caller can write it out at once instead of holding every chunk (Graph's: 148 MB).
 */
export async function renderValidators<F>(
  model: Model,
  file: (name: string, code: string) => F,
): Promise<RenderedValidators<F>> {
  const plan = compilePlan(model);
  const units = packedUnitsOf(plan);
  const cache = contentCache("validators");
  const head = header(model.specRef);
  const names = [...plan.parts.map((_, n) => partModule(n, plan.parts.length)), ...plan.jobs.map((_, n) => `${n}.cjs`)];
  const files: F[] = new Array(names.length);
  // Each unit is named by its own text: a chunk's code depends on the definitions' ids alone (content ids).
  const keys = cache === undefined ? [] : units.kinds.map((kind, index) => unitKey(kind, unitBytes(units, index)));
  const missing: number[] = [];
  names.forEach((_, index) => {
    const body = cache?.get(keys[index]);
    if (body === undefined) missing.push(index);
    else files[index] = file(names[index], `${head}\n${body}`);
  });
  await compileUnits(units, missing, (index, body) => {
    cache?.set(keys[index], body);
    files[index] = file(names[index], `${head}\n${body}`);
  });
  return { module: loaderModule(model, plan.jobs), files };
}

/** Compiles the units `indices` names, handing each one's code to `done` as it is made: on every core when there are several. */
async function compileUnits(
  units: PackedUnits,
  indices: number[],
  done: (index: number, code: string) => void,
): Promise<void> {
  if (indices.length > 1 && availableParallelism() > 1) await compileInWorkers(units, indices, done);
  else for (const index of indices) done(index, compileUnit(unitAt(units, index)));
}

/** A unit's cache key: its kind and its JSON. */
function unitKey(kind: string, json: Buffer): string {
  return sha256(Buffer.concat([Buffer.from(`${kind}\n`), json]));
}

/**
 * The chunks to compile, and the shared definitions (model.toolSchemas.shared) they use, in parts: each
 * compiled once, and called from the chunks and the other parts by id (validators-compile.ts).
 */
function compilePlan(model: Model): CompilePlan {
  const { schemas, shared } = model.toolSchemas;
  const jobs: Array<ChunkJob["entries"]> = [];
  const used = new Set<string>();
  for (const { tool, validatorName, schema, uses, typeOnly } of schemas) {
    if (typeOnly) continue;
    jobs[chunkOfTool(tool)] ??= [];
    const dialect = dialectOf(schema);
    // Keyed by our validator name, so a user's $id can never make two tools share a validator.
    const { $id: _ignored, ...withoutId } = schema;
    jobs[chunkOfTool(tool)].push({
      name: validatorName,
      schema: withoutId,
      dialect: typeof dialect === "string" ? dialect : "2020-12",
    });
    for (const id of uses) used.add(id);
  }
  // Only what a validator reaches (a result schema's definitions are types alone), in the model's order.
  const parts = partsOf(shared.filter((def) => used.has(def.id)).map((def) => ({ ...def.schema, $id: def.uri })));
  const moduleOf = new Map<string, string>();
  parts.forEach((part, n) => {
    for (const id of Object.keys(part.defs)) moduleOf.set(id, partModule(n, parts.length));
  });
  // Where each definition a unit's schemas call is, but its own part's: those it calls by `$ref`.
  const modulesFor = (schemas: JsonSchema[], own: Record<string, unknown> = {}): Modules => {
    const calls = new Set<string>();
    for (const schema of schemas)
      walkSchema(schema, (sub) => {
        if (typeof sub.$ref !== "string" || !sub.$ref.startsWith(SHARED_DEFINITION_BASE)) return;
        const id = sub.$ref.slice(SHARED_DEFINITION_BASE.length);
        if (!Object.hasOwn(own, id)) calls.add(id);
      });
    return Object.fromEntries([...calls].sort().map((id) => [id, moduleOf.get(id) as string]));
  };
  for (const part of parts) part.modules = modulesFor(Object.values(part.defs), part.defs);
  // A sparse array when a chunk has only type-only schemas: every chunk index still names a job.
  return {
    jobs: Array.from(jobs, (entries = []) => ({ entries, modules: modulesFor(entries.map((entry) => entry.schema)) })),
    parts,
  };
}

/**
 * The shared definitions cut into parts of about PART_CHARACTERS of JSON each, so that no one compile
 * holds every definition: Microsoft Graph's 2,107 in one ajv instance took a worker's heap to 350 MB at
 * the run's peak (issue 32). A part ends at a definition whose content id ends in "0", once it is long
 * enough: one definition added or changed moves the cuts of its own part alone, and a regenerate compiles
 * that part again, not all of them.
 */
const PART_CHARACTERS = 192 * 1024;
const MAX_PART_CHARACTERS = 3 * PART_CHARACTERS;

function partsOf(defs: JsonSchema[]): SharedPart[] {
  const parts: SharedPart[] = [];
  let part: SharedPart | undefined;
  let length = 0;
  for (const def of defs) {
    const id = (def.$id as string).slice(SHARED_DEFINITION_BASE.length);
    part ??= { defs: {}, modules: {} };
    part.defs[id] = def;
    length += JSON.stringify(def).length;
    if ((length >= PART_CHARACTERS && id.endsWith("0")) || length >= MAX_PART_CHARACTERS) {
      parts.push(part);
      part = undefined;
      length = 0;
    }
  }
  if (part) parts.push(part);
  return parts;
}

/** The module of part `n` of `count`: `shared.cjs` when there is one (most APIs), else `shared-<n>.cjs`. */
function partModule(n: number, count: number): string {
  return count === 1 ? "shared.cjs" : `shared-${n}.cjs`;
}

/** src/validators.ts: `validator(chunk, name)`, a validator that loads its chunk on its first call. */
function loaderModule(model: Model, jobs: ChunkJob[]): string {
  // A spec without tools has no validators; the file must still be a module.
  if (jobs.length === 0) return `${header(model.specRef)}export {};\n`;
  return [
    header(model.specRef),
    'import { createRequire } from "node:module";',
    'import { lazyValidator } from "../runtime/package/lazy-validator.ts";',
    'import type { Validator } from "../runtime/protocol/types.ts";',
    "",
    "const require = createRequire(import.meta.url);",
    `const CHUNKS = ${dataLiteral(
      jobs.map((_, n) => `./validators/${n}.cjs`),
      "",
      "const CHUNKS = ".length,
      ";",
    )};`,
    "",
    "/** The validator `name` of chunk `chunk` (compiled ajv code), loaded with its chunk on its first call. */",
    "export function validator(chunk: number, name: string): Validator {",
    "  return lazyValidator(() => require(CHUNKS[chunk]) as Record<string, Validator>, name);",
    "}",
    "",
  ].join("\n");
}
