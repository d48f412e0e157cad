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
  const units = unitsOf(plan);
  const cache = contentCache("validators");
  const head = header(model.specRef);
  let chunk = 0;
  const names = units.map((unit) => (unit.kind === "shared" ? SHARED_MODULE : `${chunk++}.cjs`));
  const files: F[] = new Array(units.length);
  // Each unit is named by its own text: a chunk's code depends on the definitions' ids alone (content ids).
  const keys = cache === undefined ? [] : units.map((unit) => sha256(`${unit.kind}\n${unit.text}`));
  const missing: number[] = [];
  units.forEach((_, index) => {
    const body = cache?.get(keys[index]);
    if (body === undefined) missing.push(index);
    else files[index] = file(names[index], `${head}\n${body}`);
  });
  await compileUnits(
    missing.map((index) => units[index]),
    (n, body) => {
      const index = missing[n];
      cache?.set(keys[index], body);
      files[index] = file(names[index], `${head}\n${body}`);
    },
  );
  return { module: loaderModule(model, plan.jobs), files };
}

/** Compiles the units, handing each one's code to `done` as it is made: on every core when there are several. */
async function compileUnits(units: Unit[], done: (index: number, code: string) => void): Promise<void> {
  if (units.length > 1 && availableParallelism() > 1) await compileInWorkers(units, done);
  else
    units.forEach((unit, index) => {
      done(index, compileUnit(unit));
    });
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
