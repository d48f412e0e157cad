// A job tool's tools/call: the job started exactly once, then a task for a client that takes tasks, or the result
// awaited for --task-wait for one that does not (then -32021 in 2026, the start answer and a note in 2025).

import type { JobTool, UpstreamAccess } from "../../package/feature.ts";
import { McpError } from "../../protocol/errors.ts";
import type { CallToolResult, Result } from "../../protocol/types.ts";
import type { HandlerContext, ToolHandlerResult } from "../../server/types.ts";
import { ownerOf, type TaskRunner } from "./task-runner.ts";
import { modernTask, tasksRequired } from "./task-shapes.ts";
import { type TaskRecord, TERMINAL } from "./task-store.ts";
import { jobOf, startIsFinal } from "./upstream-job.ts";

/** What a tools/call asked of tasks, set by the feature's tools/call: a task (`ttlMs` the client's wish), or
 * `untilDone` (a job tool run in process, by code mode: awaited to its end); absent: the client takes no task. */
export type TaskRequest = { ttlMs?: number; untilDone?: true };
export const taskRequests = new WeakMap<HandlerContext, TaskRequest>();

const errorResult = (text: string, more: ToolHandlerResult["content"] = []): ToolHandlerResult => ({
  isError: true,
  content: [{ type: "text", text }, ...(more ?? [])],
});

/** The task handle a tools/call answers (the 2025 tools/call reshapes it). */
export const taskAnswer = (record: TaskRecord): Result => ({ resultType: "task", ...modernTask(record, false) });

export function jobToolHandler(runner: TaskRunner, tool: JobTool, upstream: UpstreamAccess) {
  runner.serve(tool, upstream);
  const binding = tool.http.task;
  return async (args: Record<string, unknown>, ctx: HandlerContext): Promise<Result> => {
    const wish = taskRequests.get(ctx);
    const request = wish?.untilDone ? undefined : wish;
    const ttlMs = Math.min(request?.ttlMs ?? runner.settings.ttlMs, runner.settings.ttlMs);
    const signed = await upstream.signedAs(ctx);
    // `_fields` is this server's argument (applied to the result): never sent upstream.
    const { _fields, ...sent } = args;
    const start = await upstream.send(signed, sent, ctx.signal, { once: true });
    if (startIsFinal(binding, start)) {
      const result = await upstream.answer(start, args);
      // A 2025 task-augmented call must be answered with a task (tasks.mdx): one already finished.
      if (ctx.era !== "legacy" || !request) return result;
      return taskAnswer(await runner.create(ownerOf(ctx), ttlMs, undefined, result as CallToolResult));
    }
    const job = jobOf(tool.name, binding, start, upstream.baseUrl());
    const started = (await upstream.answer(start, args)).content;
    if (!job)
      return errorResult(
        `The upstream API started a job, but its answer names no URL to follow it by (the binding's task.poll); its answer follows.`,
        started,
      );
    const base = new URL(upstream.baseUrl()).origin;
    if (new URL(job.pollUrl).origin !== base)
      return errorResult(
        `The upstream API started a job to be followed at ${new URL(job.pollUrl).origin}, another origin than ${base}: not followed, so the credentials are not sent there. Its answer follows.`,
        started,
      );
    const record = await runner.create(ownerOf(ctx), ttlMs, {
      ...job,
      ...(_fields === undefined ? {} : { fields: _fields }),
    });
    runner.follow(record, signed);
    if (request) return taskAnswer(record);
    const waitMs = wish?.untilDone ? ttlMs : runner.settings.waitMs;
    const settled = await runner.settle(record.taskId, waitMs, ctx.signal);
    if (settled && TERMINAL.has(settled.status)) return finalAnswer(settled);
    if (ctx.era === "modern")
      throw tasksRequired(
        `the job ${tool.name} started is still running after --task-wait; call it again from a client that declares the tasks extension to get a task to poll`,
      );
    const note = `The job is still running upstream; the API's start answer (with the job's id) follows. Check on it later with the API's status tool for that id, or call ${tool.name} from a client with MCP tasks support (a task-augmented tools/call), which the server then follows to the end (task ${record.taskId}).`;
    return { content: [{ type: "text", text: note }, ...(started ?? [])] };
  };
}

/** What the tools/call would have answered, from a task that ended. */
export function finalAnswer(record: TaskRecord): Result {
  if (record.status === "completed") return record.result ?? { content: [] };
  if (record.status === "cancelled") return errorResult("The task was cancelled before the job finished.");
  const error = record.error ?? { code: -32603, message: "The task failed" };
  throw new McpError(error.code, error.message, error.data);
}
