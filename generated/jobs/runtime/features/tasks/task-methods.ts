// The methods the tasks feature adds: 2026-07-28's extension (tasks/get, tasks/update, tasks/cancel; -32021 for a
// client that did not declare it) and 2025-11-25's core tasks (tasks/get, tasks/result, tasks/list, tasks/cancel),
// and tools/call in each era, noting whether the call takes a task.

import { setTimeout as sleep } from "node:timers/promises";
import { isObject } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import { invalidParams, McpError } from "../../protocol/errors.ts";
import type { InputResponse, Result } from "../../protocol/types.ts";
import { callTool } from "../../server/features.ts";
import { revision2026 } from "../../server/revision-2026.ts";
import type { MethodCall, MethodSpec } from "../../server/scope.ts";
import type { Era } from "../../server/types.ts";
import { handlerTask } from "./handler-task.ts";
import { type TaskRequest, taskRequests } from "./job-tool.ts";
import { ownerOf, type TaskRunner } from "./task-runner.ts";
import { legacyPayload, legacyTask, modernTask, TASKS_EXTENSION, tasksRequired } from "./task-shapes.ts";
import { type TaskRecord, TERMINAL } from "./task-store.ts";

const PAGE = 100;

export function taskMethods(
  runner: TaskRunner,
  jobTools: ReadonlySet<string>,
): Partial<Record<Era, Record<string, MethodSpec>>> {
  return { modern: modernMethods(runner, jobTools), legacy: legacyMethods(runner, jobTools) };
}

/** The caller's task, else -32602 (another owner's task is as unknown as a missing one). */
async function owned(runner: TaskRunner, call: MethodCall): Promise<TaskRecord> {
  const { taskId } = call.params;
  if (typeof taskId !== "string") throw invalidParams(`${call.ctx.method}: taskId must be a string`);
  const record = await runner.advance(taskId, runner.signerFor(call.ctx));
  if (!record || record.owner !== ownerOf(call.ctx))
    throw invalidParams(`Failed to retrieve task: Task not found: ${taskId}`);
  return record;
}

const declared = (call: MethodCall) => isObject(call.scope.clientCapabilities.extensions?.[TASKS_EXTENSION]);

/** 2026: every tasks/* method needs the extension declared on the request (tasks.md "Error Handling"). */
function modernMethods(runner: TaskRunner, jobTools: ReadonlySet<string>): Record<string, MethodSpec> {
  const method = (run: (record: TaskRecord, call: MethodCall) => Promise<Result>): MethodSpec => ({
    run: async (call) => {
      if (!declared(call)) throw tasksRequired(`${call.ctx.method} needs the ${TASKS_EXTENSION} extension`);
      return run(await owned(runner, call), call);
    },
  });
  return {
    "tools/call": {
      mrtr: true,
      run: (call) => {
        noteTaskRequest(runner, call, jobTools, declared(call) ? {} : undefined);
        return callTool(call);
      },
    },
    // This server sends no task notifications, but asking for them undeclared is refused (tasks.md).
    "subscriptions/listen": {
      unbounded: true,
      run: (call) => {
        const { notifications } = call.params;
        if (isObject(notifications) && notifications.taskIds !== undefined && !declared(call))
          throw tasksRequired(`task notifications need the ${TASKS_EXTENSION} extension`);
        return revision2026.methods["subscriptions/listen"].run(call);
      },
    },
    "tasks/get": method(async (record) => modernTask(record, true)),
    // Answers to a handler task's input; any other is ignored (tasks.md: keys not outstanding are).
    "tasks/update": method(async (record, call) => {
      const responses = call.params.inputResponses;
      if (!isObject(responses)) throw invalidParams("tasks/update: inputResponses must be an object");
      runner.inputs.get(record.taskId)?.give(responses as Record<string, InputResponse>);
      return {};
    }),
    "tasks/cancel": method(async (record, call) => {
      if (!TERMINAL.has(record.status)) await runner.cancel(record, runner.signerFor(call.ctx));
      return {};
    }),
  };
}

function legacyMethods(runner: TaskRunner, jobTools: ReadonlySet<string>): Record<string, MethodSpec> {
  return {
    "tools/call": { mrtr: true, run: (call) => legacyToolCall(runner, call, jobTools) },
    "tasks/get": { run: async (call) => legacyTask(await owned(runner, call)) },
    // Blocks until the task ends (tasks.mdx), polling as it goes; no handler deadline (the task's TTL bounds it).
    "tasks/result": {
      unbounded: true,
      run: async (call) => {
        const record = await owned(runner, call);
        for (;;) {
          const ended = await runner.settle(record.taskId, record.ttlMs, call.ctx.signal, runner.signerFor(call.ctx));
          if (ended && TERMINAL.has(ended.status)) return legacyPayload(ended);
          if (ended?.status !== "input_required" || call.ctx.signal.aborted)
            throw new McpError(ErrorCode.RequestTimeout, "The task did not end");
          // 2025: a task's input is asked on its tasks/result request (tasks.mdx "Input Required").
          const pending = runner.inputs.get(record.taskId);
          if (pending) pending.give(await call.ctx.requestInputs(pending.requests));
          else await sleep(100);
        }
      },
    },
    "tasks/list": { run: (call) => listTasks(runner, call) },
    "tasks/cancel": {
      run: async (call) => {
        const record = await owned(runner, call);
        // 2025: cancelling a task that has ended is refused (tasks.mdx "Cancellation").
        if (TERMINAL.has(record.status))
          throw invalidParams(`Cannot cancel task ${record.taskId}: it is already ${legacyTask(record).status}`);
        return legacyTask(await runner.cancel(record, runner.signerFor(call.ctx)));
      },
    },
  };
}

/** 2025 tasks/list: the caller's tasks, oldest first, a page at a time behind a sealed cursor. */
async function listTasks(runner: TaskRunner, call: MethodCall): Promise<Result> {
  const records = await runner.store.list(ownerOf(call.ctx));
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.taskId.localeCompare(b.taskId));
  const cursor = call.params.cursor;
  const start = cursor === undefined ? 0 : Number(call.server.sealer.open(String(cursor)));
  if (!Number.isInteger(start) || start < 0) throw invalidParams("Invalid cursor");
  const more = start + PAGE < records.length;
  const next = more ? { nextCursor: call.server.sealer.seal(String(start + PAGE)) } : {};
  return { tasks: records.slice(start, start + PAGE).map(legacyTask), ...next };
}

/** The tool a tools/call runs (the one named, or the one it forwards to: call_tool) if it takes a task: a job
 * tool, or a handler's that says so (`execution.taskSupport`, the spec's `task: true`). */
function jobOfCall(call: MethodCall, jobTools: ReadonlySet<string>): string | undefined {
  const { name, arguments: args } = call.params;
  if (typeof name !== "string") return undefined;
  const target = call.server.tools.get(name)?.forwardsTo?.(isObject(args) ? args : {})?.name ?? name;
  const support = call.server.tools.get(target)?.execution?.taskSupport;
  return jobTools.has(target) || support === "optional" || support === "required" ? target : undefined;
}

/** A call of a job tool takes a task when `request` says so; any other call (code mode's execute) awaits the
 * job tools it runs in process to their end, within its own deadline (--code-timeout). */
function noteTaskRequest(
  runner: TaskRunner,
  call: MethodCall,
  jobTools: ReadonlySet<string>,
  request: TaskRequest | undefined,
): void {
  if (!jobOfCall(call, jobTools)) taskRequests.set(call.ctx, { untilDone: true });
  else if (request) taskRequests.set(call.ctx, request);
  call.ctx.task = handlerTask(runner, call.ctx, taskRequests.get(call.ctx));
}

/** 2025: `params.task` asks for a task; only job tools take one (-32601 for another, tasks.mdx "Tool-Level"). */
async function legacyToolCall(runner: TaskRunner, call: MethodCall, jobTools: ReadonlySet<string>): Promise<Result> {
  const { task, name } = call.params;
  if (task !== undefined && !isObject(task)) throw invalidParams("tools/call: task must be an object");
  if (task !== undefined && typeof name === "string" && !jobOfCall(call, jobTools))
    throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} does not support task-augmented execution`);
  const ttl = isObject(task) && typeof task.ttl === "number" && task.ttl > 0 ? { ttlMs: task.ttl } : {};
  noteTaskRequest(runner, call, jobTools, isObject(task) ? ttl : undefined);
  const result = await callTool(call);
  if (result.resultType !== "task") return result;
  const { resultType: _type, ...modern } = result;
  return { task: { ...legacyTaskOf(modern) } };
}

/** A CreateTaskResult's task in 2025's field names. */
function legacyTaskOf(task: Result): Result {
  const { ttlMs, pollIntervalMs, ...rest } = task;
  return { ...rest, ttl: ttlMs, pollInterval: pollIntervalMs };
}
