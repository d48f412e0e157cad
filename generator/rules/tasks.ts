/**
 * Task bindings that cannot work (issue 30): a URL with a parameter nothing fills, a state that never ends, a
 * pointer that is none. Written bindings (`task:`, `x-mcp-task`) are reported at the field; detected ones are
 * built well-formed, so only the feature check can concern them.
 */
import type { Report } from "../diagnostics/diagnostic.ts";
import type { TaskNode, ToolNode } from "../ir.ts";
import { escapeSegment } from "../source/json-pointer.ts";
import { featureAsked, type Rule } from "./rule.ts";

const PARAM = /\{([^{}]*)\}/g;
/** RFC 6901: empty (the whole document), or '/'-separated tokens in which '~' only starts ~0 or ~1. */
const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
const CANCEL_METHODS = ["DELETE", "POST", "PUT", "PATCH"];

export const taskRules: Rule = (server, report) => {
  const tasks = server.tools.flatMap((tool) => (tool.http?.task ? [{ tool, task: tool.http.task }] : []));
  for (const { tool, task } of tasks) checkTask(tool, task, report);
  if (tasks.length > 0 && !featureAsked(server, "tasks")) {
    for (const { tool, task } of tasks) {
      report(
        "TASK_FEATURE_OFF",
        task.loc.pointer,
        `tool '${tool.name}' starts a long-running job, but the features asked for leave out tasks: it answers the start answer as it is and its job is not followed`,
        { at: "key" },
      );
    }
  }
};

function checkTask(tool: ToolNode, task: TaskNode, report: Report): void {
  const at = (path: string) => `${task.loc.pointer}${path}`;
  const { poll, status, result, cancel } = task;
  if (!poll.headers && poll.link === undefined && poll.path === undefined) {
    report("TASK_POLL_MISSING", at("/poll"), `the task of tool '${tool.name}' does not say where its status is read`);
  }
  checkPath(tool, poll.path, poll.params, at("/poll"), report);
  if (status && status.completed.length === 0) {
    report(
      "TASK_STATUS_INCOMPLETE",
      at("/status"),
      `status.pointer '${status.pointer}' of tool '${tool.name}' has no completed values: the task would never end`,
      { at: "key" },
    );
  }
  if (result) {
    const sources = (["pointer", "link", "header"] as const).filter((key) => result[key] !== undefined);
    if (sources.length > 1)
      report(
        "TASK_RESULT_AMBIGUOUS",
        at("/result"),
        `result of tool '${tool.name}' gives ${sources.join(" and ")}; the result comes from one of them`,
        { at: "key" },
      );
  }
  if (cancel) {
    if (!CANCEL_METHODS.includes(cancel.method.toUpperCase()))
      report(
        "TASK_METHOD_INVALID",
        at("/cancel/method"),
        `cancel.method '${cancel.method}' of tool '${tool.name}' is not one of ${CANCEL_METHODS.join(", ")}`,
      );
    checkPath(tool, cancel.path, cancel.params, at("/cancel"), report);
  }
  const pointers: Array<[string, string | undefined]> = [
    ["/poll/link", poll.link],
    ["/status/pointer", status?.pointer],
    ["/result/pointer", result?.pointer],
    ["/result/link", result?.link],
    ["/error", task.error],
    ...Object.entries(poll.params ?? {}).map(([name, value]): [string, string] => [
      `/poll/params/${escapeSegment(name)}`,
      value,
    ]),
    ...Object.entries(cancel?.params ?? {}).map(([name, value]): [string, string] => [
      `/cancel/params/${escapeSegment(name)}`,
      value,
    ]),
  ];
  for (const [path, pointer] of pointers) {
    if (pointer !== undefined && !JSON_POINTER.test(pointer))
      report(
        "TASK_POINTER_INVALID",
        at(path),
        `'${pointer}' (${path.slice(1).replaceAll("/", ".")} of tool '${tool.name}'s task) is not a JSON pointer`,
        { hint: `write it with a leading slash: '/${pointer.replace(/^[#/]+/, "")}'` },
      );
  }
}

/** A poll or cancel path: relative to the base URL, each `{param}` filled from `params`. */
function checkPath(
  tool: ToolNode,
  path: string | undefined,
  params: Record<string, string> | undefined,
  at: string,
  report: Report,
): void {
  if (path === undefined) return;
  if (!path.startsWith("/") || /[{}]/.test(path.replace(PARAM, ""))) {
    report(
      "HTTP_PATH_INVALID",
      `${at}/path`,
      `path '${path}' of tool '${tool.name}'s task does not start with '/' or has an unbalanced brace`,
    );
    return;
  }
  for (const [, name] of path.matchAll(PARAM)) {
    if (params && Object.hasOwn(params, name)) continue;
    report(
      "TASK_PARAM_MISSING",
      `${at}/path`,
      `path '${path}' of tool '${tool.name}'s task uses {${name}}, which params does not supply`,
      { hint: `add params: { ${name}: /${name} } (a JSON pointer into the start answer's body)` },
    );
  }
}
