// A task as each protocol era shows it: 2026-07-28's extension (`ttlMs`, result or error inlined, a tool error
// is `completed`) and 2025-11-25's core tasks (`ttl`, the payload via tasks/result, a tool error is `failed`).
import { ErrorCode } from "../../protocol/constants.ts";
import { McpError } from "../../protocol/errors.ts";
import type { Result } from "../../protocol/types.ts";
import type { TaskRecord } from "./task-store.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

const optional = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value });

/** 2026: the Task fields, and with `detailed` what its status carries (tasks/get). */
export function modernTask(record: TaskRecord, detailed: boolean): Result {
  const task: Result = {
    taskId: record.taskId,
    status: record.status,
    ...optional("statusMessage", record.statusMessage),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (!detailed) return task;
  if (record.status === "completed") task.result = record.result ?? { content: [] };
  if (record.status === "failed") task.error = record.error ?? { code: ErrorCode.InternalError, message: "failed" };
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  return task;
}

/** 2025: a tool result with isError ends the task `failed` (tasks.mdx "Task Status"). */
export function legacyTask(record: TaskRecord): Result {
  const failedTool = record.status === "completed" && record.result?.isError === true;
  return {
    taskId: record.taskId,
    status: failedTool ? "failed" : record.status,
    ...optional("statusMessage", record.statusMessage),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
}

/** 2025 tasks/result of a terminal task: exactly what the tools/call would have answered. */
export function legacyPayload(record: TaskRecord): Result {
  const related = { _meta: { [RELATED_TASK]: { taskId: record.taskId } } };
  if (record.status === "completed") return { ...record.result, ...related };
  if (record.status === "cancelled")
    throw new McpError(ErrorCode.InvalidParams, `Task ${record.taskId} was cancelled`, related._meta);
  const error = record.error ?? { code: ErrorCode.InternalError, message: "The task failed" };
  throw new McpError(error.code, error.message, error.data);
}

/** -32021: a call that needs tasks from a client that did not declare the extension (2026 only). */
export function tasksRequired(what: string): McpError {
  return new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${what}`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}
