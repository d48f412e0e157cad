/**
 * Validators: every tool's input and output schema compiled ahead of time into ajv standalone code, so
 * a server compiles no schema. The code is split into chunks, `src/validators/<n>.cjs`, that
 * `src/validators.ts` loads on the first call of one of their tools: start-up parses none of it (a
 * GitHub-sized API has 15 MB of validator code), and the chunks compile in parallel worker threads.
 */
import { availableParallelism } from "node:os";
import { sha256 } from "../hash.ts";
import type { Model } from "../normalize/normalize.ts";
import { contentCache } from "../output/content-cache.ts";
import { dialectOf } from "../schema/dialect.ts";
import { header } from "./ts.ts";
import { dataLiteral } from "./ts-data-literal.ts";
import { type ChunkJob, type CompilePlan, compileChunk, type PlanText, planText } from "./validators-compile.ts";
import { compileInWorkers } from "./validators-pool.ts";

/** Tools per chunk: small enough that a first call loads little, large enough that shared definitions
 * are not compiled into too many chunks (each chunk holds the ones its tools use). */
const TOOLS_PER_CHUNK = 100;

/** The chunk holding the validators of the tool at `index` in the model. */
export function chunkOfTool(index: number): number {
  return Math.floor(index / TOOLS_PER_CHUNK);
}

export type RenderedValidators = { module: string; chunks: string[] };

export async function renderValidators(model: Model): Promise<RenderedValidators> {
  const plan = compilePlan(model);
  const cache = contentCache("validators");
  // Every job and definition as JSON, once: what the workers parse, and what names a chunk's cache entry
  // (its job and the digests of the definitions it uses: their text, repeated per chunk, was hundreds of
  // megabytes for Microsoft Graph).
  const text = planText(plan);
  const defDigests = new Map<string, string>();
  const digestOf = (id: string) => {
    const known = defDigests.get(id);
    if (known !== undefined) return known;
    const digest = sha256(text.defs[id]);
    defDigests.set(id, digest);
    return digest;
  };
  const inputs =
    cache === undefined
      ? []
      : plan.jobs.map((job, index) => `${sha256(text.jobs[index])} ${job.defIds.map(digestOf).join(" ")}`);
  const bodies: Array<string | undefined> = plan.jobs.map((_, index) => cache?.get(inputs[index]));
  const missing = bodies.flatMap((body, index) => (body === undefined ? [index] : []));
  const compiled = await compileJobs(
    { jobs: missing.map((index) => plan.jobs[index]), defs: plan.defs },
    { jobs: missing.map((index) => text.jobs[index]), defs: text.defs },
  );
  missing.forEach((index, n) => {
    bodies[index] = compiled[n];
    cache?.set(inputs[index], compiled[n]);
  });
  const head = header(model.specRef);
  return { module: loaderModule(model, plan.jobs), chunks: bodies.map((body) => `${head}\n${body}`) };
}

/** Compiles the plan's chunks (`text`: the same plan as JSON, for the workers): on every core when there are several. */
function compileJobs(plan: CompilePlan, text: PlanText): Promise<string[]> | string[] {
  return plan.jobs.length > 1 && availableParallelism() > 1
    ? compileInWorkers(plan, text)
    : plan.jobs.map((_, index) => compileChunk(plan, index));
}

/**
 * The chunks to compile. Shared definitions (model.toolSchemas.shared) are compiled once per chunk that
 * uses them and referred to by their `$id`, instead of a copy per tool (tens of megabytes of validator
 * code for a GitHub-sized API).
 */
function compilePlan(model: Model): CompilePlan {
  const plan: CompilePlan = { jobs: [], defs: {} };
  const { schemas, shared } = model.toolSchemas;
  for (const def of shared) plan.defs[def.id] = { ...def.schema, $id: def.uri };
  const used = new Map<ChunkJob, Set<string>>();
  for (const { tool, validatorName, schema, uses, typeOnly } of schemas) {
    if (typeOnly) continue;
    const chunk = chunkOfTool(tool);
    plan.jobs[chunk] ??= { entries: [], defIds: [] };
    const job = plan.jobs[chunk];
    const dialect = dialectOf(schema);
    // Keyed by our validator name, so a user's $id can never make two tools share a validator.
    const { $id: _ignored, ...withoutId } = schema;
    job.entries.push({
      name: validatorName,
      schema: withoutId,
      dialect: typeof dialect === "string" ? dialect : "2020-12",
    });
    const ids = used.get(job) ?? new Set();
    for (const id of uses) ids.add(id);
    used.set(job, ids);
  }
  for (const [job, ids] of used) job.defIds = [...ids].sort();
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
