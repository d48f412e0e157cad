/**
 * Validators: every tool's input and output schema compiled ahead of time into ajv standalone code, so
 * a server compiles no schema. The code is split into chunks, `src/validators/<n>.cjs`, that
 * `src/validators.ts` loads on the first call of one of their tools: start-up parses none of it (a
 * GitHub-sized API has 15 MB of validator code), and the chunks compile in parallel worker threads.
 */
import { availableParallelism } from "node:os";
import type { JsonSchema } from "../ir.ts";
import type { Model } from "../normalize.ts";
import { shareDefs } from "../openapi/shared-defs.ts";
import { dialectOf } from "../schema-dialect.ts";
import { header } from "./ts.ts";
import { dataLiteral } from "./ts-data-literal.ts";
import { type ChunkJob, type CompilePlan, compileChunk } from "./validators-compile.ts";
import { compileInWorkers } from "./validators-pool.ts";

const SHARED_BASE = "https://mcpgen.invalid/defs/";
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
  const chunks =
    plan.jobs.length > 1 && availableParallelism() > 1
      ? await compileInWorkers(plan)
      : plan.jobs.map((_, index) => compileChunk(plan, index));
  return { module: loaderModule(model, plan.jobs), chunks };
}

function compilePlan(model: Model): CompilePlan {
  const plan: CompilePlan = { jobs: [], defs: {}, header: header(model.specRef) };
  const entries: ChunkJob["entries"] = [];
  const toolOf: number[] = [];
  model.tools.forEach((tool, index) => {
    const schemas: Array<[string, JsonSchema]> = [[tool.validateInput, tool.node.inputSchema]];
    if (tool.validateOutput && tool.node.outputSchema) schemas.push([tool.validateOutput, tool.node.outputSchema]);
    for (const [name, schema] of schemas) {
      const dialect = dialectOf(schema);
      // Keyed by our validator name, so a user's $id can never make two tools share a validator.
      const { $id: _ignored, ...withoutId } = schema;
      entries.push({ name, schema: withoutId, dialect: typeof dialect === "string" ? dialect : "2020-12" });
      toolOf.push(index);
    }
  });
  const { jobs } = plan;
  const chunkOf = (i: number) => chunkOfTool(toolOf[i]);
  const jobAt = (i: number) => {
    jobs[chunkOf(i)] ??= { entries: [], defIds: [] };
    return jobs[chunkOf(i)];
  };
  if (model.server.origin !== "openapi") {
    entries.forEach((entry, i) => {
      jobAt(i).entries.push(entry);
    });
    return plan;
  }
  // OpenAPI tools share component schemas: compile each once per chunk and let the tools refer to it,
  // instead of a copy per tool (tens of megabytes of validator code for a GitHub-sized API).
  const { roots, defs, uses } = shareDefs(
    entries.map((entry) => entry.schema),
    (id) => `${SHARED_BASE}${id}`,
  );
  for (const def of defs) plan.defs[def.id] = { ...def.schema, $id: `${SHARED_BASE}${def.id}` };
  const used = new Map<ChunkJob, Set<string>>();
  entries.forEach((entry, i) => {
    const job = jobAt(i);
    job.entries.push({ ...entry, schema: roots[i] });
    const ids = used.get(job) ?? new Set();
    for (const id of uses[i]) ids.add(id);
    used.set(job, ids);
  });
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
    'import { lazyValidator } from "../runtime/lazy-validator.ts";',
    'import type { Validator } from "../runtime/types.ts";',
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
