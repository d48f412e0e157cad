/**
 * An operation's task binding: its `x-mcp-task` when it has one (which wins over detection), else what its
 * documentation implies (task-detect.ts). `x-mcp-task` holds TaskBinding's fields but `style` ("status" with a
 * `status`, else "location"); `poll` defaults to the 202's documented poll headers; `cancel` may name the
 * cancelling operation (`operationId`); `resultSchema` is the final result's schema, the tool's outputSchema.
 */
import type { TaskNode } from "../ir.ts";
import { childPointer } from "../source/json-pointer.ts";
import { readTask, type WrittenCancel } from "../tasks/read-task.ts";
import { isJson, type Json } from "./document.ts";
import { detectTask, documentedPollHeaders, type TaskContext, type TaskSubject } from "./task-detect.ts";

/** Where the start answer's poll URL is looked for when x-mcp-task says nothing and the 202 documents no header. */
const DEFAULT_POLL_HEADERS = ["operation-location", "location"];

/** The task and, when x-mcp-task gives one, the final result's schema as written (the caller converts it). */
export type OperationTask = { task: TaskNode; resultSchema?: unknown };

export function operationTask(subject: TaskSubject, ctx: TaskContext): OperationTask | undefined {
  if (subject.op["x-mcp-task"] === undefined) {
    const task = detectTask(subject, ctx);
    return task ? { task } : undefined;
  }
  const at = `${subject.pointer}/x-mcp-task`;
  const extension = subject.op["x-mcp-task"];
  const written = readTask(extension, at, ctx.report);
  if (!written) return undefined;
  const { cancel, poll, ...rest } = written;
  const headers = documentedPollHeaders(ctx.root, subject.op);
  const task: TaskNode = {
    kind: "task",
    loc: ctx.loc(at),
    source: "written",
    style: written.status ? "status" : "location",
    poll: poll ?? { headers: headers.length > 0 ? headers : [...DEFAULT_POLL_HEADERS] },
    ...rest,
    ...cancelOf(cancel, `${at}/cancel`, ctx),
  };
  checkDocumented("get", task.poll.path, `${at}/poll/path`, "poll.path", ctx);
  if (task.cancel && written.cancel?.operationId === undefined)
    checkDocumented(task.cancel.method, task.cancel.path, `${at}/cancel/path`, "cancel.path", ctx);
  const schema = (extension as Json).resultSchema;
  if (schema !== undefined && !isJson(schema)) {
    ctx.report(
      "TASK_EXTENSION_INVALID",
      `${at}/resultSchema`,
      "resultSchema must be a schema object (or a $ref to one)",
    );
    return { task };
  }
  return { task, ...(schema !== undefined ? { resultSchema: schema } : {}) };
}

/** A cancel naming an operation becomes that operation's method and path (its params as written). */
function cancelOf(cancel: WrittenCancel | undefined, at: string, ctx: TaskContext): Pick<TaskNode, "cancel"> {
  if (!cancel) return {};
  const { operationId, params, ...direct } = cancel;
  if (operationId === undefined) {
    if (!direct.method) {
      ctx.report("TASK_EXTENSION_INVALID", at, "cancel needs method (and optionally path and params) or operationId");
      return {};
    }
    return { cancel: { method: direct.method, ...pathOf(direct.path), ...(params ? { params } : {}) } };
  }
  const target = ctx.operations().find(({ op }) => op.operationId === operationId);
  if (!target) {
    ctx.report(
      "TASK_CANCEL_OPERATION_UNKNOWN",
      childPointer(at, "operationId"),
      `cancel.operationId '${operationId}' is the operationId of no operation in the document`,
    );
    return {};
  }
  return { cancel: { method: target.method.toUpperCase(), path: target.path, ...(params ? { params } : {}) } };
}

/** `{id}` and `{exportId}` name the same path segment: paths are compared with their parameters blanked. */
const shape = (path: string) => path.replace(/\{[^{}]*\}/g, "{}");

/** Warns when the document has no `method` operation at `path` (an undocumented path, or one that takes another method). */
function checkDocumented(method: string, path: string | undefined, at: string, field: string, ctx: TaskContext): void {
  if (path === undefined) return;
  const atPath = ctx.operations().filter((candidate) => shape(candidate.path) === shape(path));
  if (atPath.some((candidate) => candidate.method === method.toLowerCase())) return;
  const methods = atPath.map((candidate) => candidate.method.toUpperCase());
  ctx.report(
    "TASK_PATH_UNDOCUMENTED",
    at,
    atPath.length === 0
      ? `${field} '${path}' is the path of no operation in the document`
      : `${field} '${path}' is called with ${method.toUpperCase()}, but the document's operations there take ${methods.join(", ")}`,
  );
}

function pathOf(path: string | undefined): { path?: string } {
  return path === undefined ? {} : { path };
}
