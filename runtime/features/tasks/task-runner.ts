// Tasks over upstream jobs: made when a job tool's start answer names a job, advanced by whichever instance
// reads them once a poll is due (so a task outlives the instance that made it), and followed in the background
// by the instance that made it while it still holds the caller's credentials.
import { setTimeout as sleep } from "node:timers/promises";
import type { JobTool, UpstreamAccess } from "../../package/feature.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import { errorMessage } from "../../protocol/errors.ts";
import type { CallToolResult } from "../../protocol/types.ts";
import type { HandlerContext, ToolHandlerResult } from "../../server/types.ts";
import type { UpstreamCall as Signed, UpstreamResponse } from "../../upstream/types.ts";
import {
  type JobState,
  newTaskId,
  type PendingInput,
  type TaskRecord,
  type TaskStore,
  TERMINAL,
} from "./task-store.ts";
import { pollOutcome } from "./upstream-job.ts";

export type TaskSettings = { ttlMs: number; waitMs: number; pollIntervalMs: number };
type Served = { tool: JobTool; upstream: UpstreamAccess };

const now = () => new Date().toISOString();
const asResult = (result: ToolHandlerResult): CallToolResult =>
  ({ ...result, content: Array.isArray(result.content) ? result.content : [] }) as CallToolResult;

export class TaskRunner {
  private readonly served = new Map<string, Served>();
  /** Credentials of the callers of tasks this instance made, while it follows them (never stored). */
  private readonly following = new Map<string, Signed>();
  /** Handler tasks running here: their cancellation, and the input one waits for (handler-task.ts). */
  private readonly aborts = new Map<string, AbortController>();
  readonly inputs = new Map<string, PendingInput>();

  constructor(
    readonly store: TaskStore,
    readonly settings: TaskSettings,
  ) {}

  serve(tool: JobTool, upstream: UpstreamAccess): void {
    this.served.set(tool.name, { tool, upstream });
  }

  /** Signs polls as the caller of a tasks/* request (the task's owner), with any job tool's upstream access. */
  signerFor(ctx: HandlerContext): () => Promise<Signed> {
    return async () => {
      const [served] = this.served.values();
      if (!served) throw new Error("no job tool is served");
      return served.upstream.signedAs(ctx);
    };
  }

  /** A task for a job just started (`job`), or already finished (`result`: a 2025 task-augmented call). */
  async create(owner: string, ttlMs: number, job: JobState | undefined, result?: CallToolResult): Promise<TaskRecord> {
    const created = now();
    const interval = (job && this.served.get(job.tool)?.tool.http.task.pollIntervalMs) ?? this.settings.pollIntervalMs;
    const record: TaskRecord = {
      taskId: newTaskId(),
      owner,
      status: result ? "completed" : "working",
      ...(result ? {} : { statusMessage: "The upstream job is running." }),
      createdAt: created,
      lastUpdatedAt: created,
      ttlMs,
      pollIntervalMs: interval,
      nextPollAt: Date.now() + interval,
      ...(job ? { job } : {}),
      ...(result ? { result } : {}),
    };
    return this.store.put(record);
  }

  /** Polls the job in the background until the task ends, with the caller's credentials held in memory. */
  follow(record: TaskRecord, signed: Signed): void {
    this.following.set(record.taskId, signed);
    void this.settle(record.taskId, record.ttlMs, undefined)
      .catch(() => undefined)
      .finally(() => this.following.delete(record.taskId));
  }

  /** Advances the task until it ends or `waitMs` passes (or `signal` aborts); its latest record. */
  async settle(taskId: string, waitMs: number, signal: AbortSignal | undefined, signedFor?: () => Promise<Signed>) {
    const until = Date.now() + waitMs;
    for (;;) {
      const record = await this.advance(taskId, signedFor);
      const waitsForInput = record?.status === "input_required";
      if (!record || TERMINAL.has(record.status) || waitsForInput || Date.now() >= until || signal?.aborted)
        return record;
      const pause = Math.min(Math.max(record.nextPollAt - Date.now(), 25), 500, until - Date.now());
      await sleep(Math.max(pause, 1), undefined, { ref: false });
    }
  }

  /** The task's record, after polling its job once if a poll is due and this instance serves its tool. */
  async advance(taskId: string, signedFor?: () => Promise<Signed>): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    if (!record || TERMINAL.has(record.status)) return record;
    if (Date.now() >= Date.parse(record.createdAt) + record.ttlMs) {
      const message = "The upstream job did not finish within the task's time to live (--task-ttl); given up";
      return this.end(record, { status: "failed", error: { code: ErrorCode.InternalError, message } });
    }
    const served = record.job && this.served.get(record.job.tool);
    if (!record.job || !served || Date.now() < record.nextPollAt) return record;
    const signed = this.following.get(taskId) ?? (await signedFor?.());
    if (!signed) return record;
    // Claims the poll: other readers see the next poll time and wait for it.
    const claimed = await this.store.put({ ...record, nextPollAt: Date.now() + record.pollIntervalMs });
    if (TERMINAL.has(claimed.status)) return claimed;
    return this.poll(claimed, record.job, served, signed);
  }

  private async poll(record: TaskRecord, job: JobState, { tool, upstream }: Served, signed: Signed) {
    const args = job.fields === undefined ? {} : { _fields: job.fields };
    const signal = AbortSignal.timeout(Math.max(1_000, Date.parse(record.createdAt) + record.ttlMs - Date.now()));
    const finished = async (answer: UpstreamResponse) =>
      this.end(record, { status: "completed", result: asResult(await upstream.answer(answer, args)) });
    try {
      const answer = await upstream.send(signed, {}, signal, { url: job.pollUrl, method: "GET" });
      const outcome = pollOutcome(tool.http.task, job, answer);
      if (outcome.state === "working") {
        // Retry-After when the upstream says; else the interval, backing off to 16 times it for a long job.
        const backoff = record.pollIntervalMs * 2 ** Math.min(Math.floor((record.polls ?? 0) / 5), 4);
        const next = Date.now() + (outcome.retryAfterMs ?? backoff);
        const message = outcome.message ?? "The upstream job is running.";
        const polls = (record.polls ?? 0) + 1;
        return this.store.put({ ...record, statusMessage: message, lastUpdatedAt: now(), nextPollAt: next, polls });
      }
      if (outcome.state === "cancelled")
        return this.end(record, { status: "cancelled", statusMessage: "The upstream job was cancelled." });
      if (outcome.state === "result-at")
        return finished(await upstream.send(signed, {}, signal, { url: outcome.url, method: "GET" }));
      if (outcome.state === "done") return finished(outcome.answer);
      // A job that failed upstream is the tool's error, not a protocol one: `completed` with isError (2026 rule).
      const result = asResult(await upstream.answer(outcome.answer, {}));
      const content = [{ type: "text" as const, text: outcome.message }, ...result.content];
      return this.end(record, { status: "completed", result: { ...result, isError: true, content } });
    } catch (error) {
      // The poll did not get through (network, a refused origin): said in the status, tried again until the TTL.
      const message = `The last poll of the upstream job failed: ${errorMessage(error)}`;
      return this.store.put({ ...record, statusMessage: message, lastUpdatedAt: now() });
    }
  }

  /** A handler task's cancellation: aborted by tasks/cancel or when its TTL passes. */
  running(taskId: string, ttlMs: number): AbortController {
    const abort = new AbortController();
    this.aborts.set(taskId, abort);
    const timer = setTimeout(() => abort.abort(new Error("The task's time to live passed")), ttlMs);
    timer.unref();
    abort.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    return abort;
  }

  /** A change to a task (a handler task's status, input or end); `undefined` values remove fields. */
  async update(taskId: string, change: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    if (!record) return undefined;
    const updated = await this.store.put({ ...record, ...change, lastUpdatedAt: now() });
    if (TERMINAL.has(updated.status)) this.aborts.delete(taskId);
    return updated;
  }

  /** Cancels a task that has not ended: the upstream's cancel operation where one is bound, then `cancelled`. */
  async cancel(record: TaskRecord, signedFor: () => Promise<Signed>): Promise<TaskRecord> {
    const served = record.job && this.served.get(record.job.tool);
    let note = "";
    if (record.job?.cancel && served) {
      const { method, url } = record.job.cancel;
      try {
        const answer = await served.upstream.send(await signedFor(), {}, AbortSignal.timeout(30_000), { url, method });
        note =
          answer.status < 300
            ? " The upstream job was cancelled too."
            : ` The upstream answered ${answer.status} to the cancel.`;
      } catch (error) {
        note = ` Cancelling the upstream job failed: ${errorMessage(error)}`;
      }
    }
    this.aborts.get(record.taskId)?.abort(new Error("The task was cancelled"));
    return this.end(record, { status: "cancelled", statusMessage: `Cancelled by the client.${note}` });
  }

  private end(record: TaskRecord, change: Partial<TaskRecord>): Promise<TaskRecord> {
    return this.store.put({ ...record, statusMessage: undefined, ...change, lastUpdatedAt: now() });
  }
}

/** Who may see a task: the OAuth subject, else the 2025 session, else anyone holding its id. */
export function ownerOf(ctx: HandlerContext): string {
  if (ctx.auth) return `sub:${ctx.auth.issuer} ${ctx.auth.subject}`;
  return ctx.sessionId ? `session:${ctx.sessionId}` : "";
}
