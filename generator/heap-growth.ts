/**
 * How far V8 lets the heap grow past what the last full collection kept, for a large spec (issue 32).
 * By default it raises the limit by up to 4× while a process allocates fast, and generating a large API
 * allocates fast: Microsoft Graph kept 600-760 MB alive at any point but peaked at 2.6-3.0 GB of RSS,
 * most of it garbage not yet collected (ajv's code generation, json-schema-to-typescript, token counts).
 * Growing by 40% at a time collects it sooner: 1.55-1.66 GB, for 4% more CPU in a paired run. 20% gave
 * 1.39-1.43 GB but cost 21% more CPU (bench/RESULTS.md, "Codegen (issue 32)"). The flag is read at every
 * full collection, so setting it after start-up takes effect. A user's own --heap-growing-percent on
 * node's command line is left as it is.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const GROWING_PERCENT = 40;
const RENDER_GROWING_PERCENT = 20;
const FLAG = /^--heap[-_]growing[-_]percent\b/;

/** A full collection, for a run whose heap growth is bounded; undefined for any other run. */
let collector: (() => void) | undefined;

export function boundHeapGrowth(): void {
  if (collector === undefined) {
    // A context made after --expose-gc is set has `gc`; the process's own global does not.
    setFlagsFromString("--expose-gc");
    collector = runInNewContext("gc") as () => void;
  }
  if (!growthIsTheUsers()) setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
}

/**
 * Growth by 20% from here on, for a run whose growth is bounded: render, where the run's peaks are (ajv on
 * both threads, the token counts, the types' text) with 270-300 MB live. Microsoft Graph: the run peaked
 * at 822-938 MiB with 40%, at 813-863 with 20% in render, for 9% more CPU in a pair (bench/RESULTS.md):
 * the margin under issue 32's 1 GiB, on a machine that is not quiet. Normalize, which makes the most
 * garbage of all but peaks far lower, keeps 40%: 20% for the whole run cost 21% more CPU.
 */
export function tightenHeapGrowth(): void {
  if (collector !== undefined && !growthIsTheUsers())
    setFlagsFromString(`--heap-growing-percent=${RENDER_GROWING_PERCENT}`);
}

/** A --heap-growing-percent on node's own command line: the user's choice, left as it is. */
function growthIsTheUsers(): boolean {
  return process.execArgv.some((arg) => FLAG.test(arg));
}

/**
 * Collects now, where a stage that kept much alive has just let it go (json-schema-to-typescript's model
 * of every type): V8 set the heap's limit from what that stage kept, and the next stage would fill the
 * heap up to it with garbage first. Graph's types were then formatted 350 MB above what was live.
 * Nothing for a small spec (its heap is left to V8).
 */
export function collectGarbage(): void {
  collector?.();
}
