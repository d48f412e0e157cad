/**
 * Validators: every tool's input and output schema compiled ahead of time into ajv standalone code, so
 * a server compiles no schema. The code is split into chunks, `src/validators/<n>.cjs`, that
 * `src/validators.ts` loads on the first call of one of their tools: start-up parses none of it (a
 * GitHub-sized API has megabytes of validator code). The definitions tools share are compiled once, into
 * `src/validators/shared.cjs`, which a chunk loads with itself. Chunks compile in parallel worker threads.
 */
import { availableParallelism } from "node:os";
import { sha256 } from "../hash.ts";
import type { Model } from "../normalize/normalize.ts";
import { contentCache } from "../output/content-cache.ts";
import { dialectOf } from "../schema/dialect.ts";
import { header } from "./ts.ts";
import { dataLiteral } from "./ts-data-literal.ts";
import {
  type ChunkJob,
  type CompilePlan,
  compileUnit,
  SHARED_MODULE,
  type Unit,
  unitsOf,
} from "./validators-compile.ts";
import { compileInWorkers } from "./validators-pool.ts";

/** Tools per chunk: small enough that a first call loads little, large enough that shared definitions
 * are not compiled into too many chunks (each chunk holds the ones its tools use). */
const TOOLS_PER_CHUNK = 100;

/** The chunk holding the validators of the tool at `index` in the model. */
export function chunkOfTool(index: number): number {
  return Math.floor(index / TOOLS_PER_CHUNK);
}

/** `files`: the modules of src/validators/, by file name (`shared.cjs`, `0.cjs`, `1.cjs`...). */
export type RenderedValidators = { module: string; files: Array<{ name: string; code: string }> };

export async function renderValidators(model: Model): Promise<RenderedValidators> {
  const plan = compilePlan(model);
  const units = unitsOf(plan);
  const cache = contentCache("validators");
  // Each unit is named by its own text: a chunk's code depends on the definitions' ids alone (content ids).
  const keys = cache === undefined ? [] : units.map((unit) => sha256(`${unit.kind}\n${unit.text}`));
  const bodies: Array<string | undefined> = units.map((_, index) => cache?.get(keys[index]));
  const missing = bodies.flatMap((body, index) => (body === undefined ? [index] : []));
  const compiled = await compileUnits(missing.map((index) => units[index]));
  missing.forEach((index, n) => {
    bodies[index] = compiled[n];
    cache?.set(keys[index], compiled[n]);
  });
  const head = header(model.specRef);
  let chunk = 0;
  const files = units.map((unit, index) => ({
    name: unit.kind === "shared" ? SHARED_MODULE : `${chunk++}.cjs`,
    code: `${head}\n${bodies[index]}`,
  }));
  return { module: loaderModule(model, plan.jobs), files };
}

/** Compiles the units: on every core when there are several. */
function compileUnits(units: Unit[]): Promise<string[]> | string[] {
  return units.length > 1 && availableParallelism() > 1 ? compileInWorkers(units) : units.map(compileUnit);
}

/**
 * The chunks to compile, and the shared definitions (model.toolSchemas.shared) they use: compiled once,
 * into validators/shared.cjs, and called from the chunks by id (validators-compile.ts).
 */
function compilePlan(model: Model): CompilePlan {
  const plan: CompilePlan = { jobs: [], defs: {} };
  const { schemas, shared } = model.toolSchemas;
  const used = new Set<string>();
  for (const { tool, validatorName, schema, uses, typeOnly } of schemas) {
    if (typeOnly) continue;
    const chunk = chunkOfTool(tool);
    plan.jobs[chunk] ??= { entries: [] };
    const dialect = dialectOf(schema);
    // Keyed by our validator name, so a user's $id can never make two tools share a validator.
    const { $id: _ignored, ...withoutId } = schema;
    plan.jobs[chunk].entries.push({
      name: validatorName,
      schema: withoutId,
      dialect: typeof dialect === "string" ? dialect : "2020-12",
    });
    for (const id of uses) used.add(id);
  }
  // Only what a validator reaches (a result schema's definitions are types alone), in the model's order.
  for (const def of shared) if (used.has(def.id)) plan.defs[def.id] = { ...def.schema, $id: def.uri };
  return plan;
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
