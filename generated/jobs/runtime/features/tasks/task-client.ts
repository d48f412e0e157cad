// The client's side of tasks: a tool call answered with a task is awaited to its result (polling at the server's
// interval), with status callbacks and cancellation; or started as a handle to poll, read and cancel later.
// 2026-07-28: the extension declared on every request; 2025-11-25: a task-augmented call where the server and the
// tool allow one.
import { setTimeout as sleep } from "node:timers/promises";
import type { CallOptions, ClientTasks, McpClient, PromptTypes, ToolTypes } from "../../client/client.ts";
import { isObject } from "../../protocol/codec.ts";
import { ErrorCode } from "../../protocol/constants.ts";
import { McpError } from "../../protocol/errors.ts";
import type { CallToolResult, JsonObject, JsonRpcError, Result } from "../../protocol/types.ts";
import { TASKS_EXTENSION } from "./task-shapes.ts";

type AnyClient = McpClient<ToolTypes, PromptTypes>;
/** A task as either era's tasks/get shows it, in 2026's field names. */
export type TaskView = {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  pollIntervalMs?: number;
};
export type TaskCallOptions = CallOptions;

export type TaskHandle = {
  taskId: string;
  /** The task now (tasks/get). */
  status(): Promise<TaskView>;
  /** Polls until it ends: its tool result, or the error it failed with. */
  result(options?: TaskCallOptions): Promise<CallToolResult>;
  cancel(): Promise<void>;
};

export const isHandle = (value: TaskHandle | CallToolResult): value is TaskHandle => typeof value.cancel === "function";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const taskSupport = new WeakMap<AnyClient, Promise<Map<string, unknown>>>();

/** Pass as `connect(target, { tasks: clientTasks })`: callTool then awaits a task to the tool's result. */
export const clientTasks: ClientTasks = {
  capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  async callTool(client, name, options, send) {
    const started = await startTask(client, name, send);
    return isHandle(started) ? started.result(options) : started;
  },
};

/** Calls a tool; a task's handle if the server made one, else the tool's result as it came. */
export async function startToolTask(
  client: AnyClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<TaskHandle | CallToolResult> {
  return startTask(client, name, (extra) =>
    client.request<CallToolResult>("tools/call", { name, arguments: args, ...extra }),
  );
}

async function startTask(
  client: AnyClient,
  name: string,
  send: (extra?: JsonObject) => Promise<CallToolResult>,
): Promise<TaskHandle | CallToolResult> {
  if (client.era === "modern") {
    const answer: Result = await send();
    return answer.resultType === "task" ? handle(client, answer as TaskView) : (answer as CallToolResult);
  }
  if (!(await legacyTaskTool(client, name))) return send();
  const answer: Result = await send({ task: {} });
  return isObject(answer.task) ? handle(client, legacyView(answer.task)) : (answer as CallToolResult);
}

/** 2025: the server declares task-augmented tools/call and the tool says it takes a task (tasks.mdx). */
async function legacyTaskTool(client: AnyClient, name: string): Promise<boolean> {
  const tasks = (client.server.capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } }).tasks;
  if (!isObject(tasks?.requests?.tools?.call)) return false;
  let listed = taskSupport.get(client);
  if (!listed) {
    listed = client
      .listTools()
      .then(({ tools }) => new Map(tools.map((tool) => [tool.name, tool.execution?.taskSupport])));
    taskSupport.set(client, listed);
  }
  const support = (await listed).get(name);
  return support === "optional" || support === "required";
}

function legacyView(task: JsonObject): TaskView {
  const { pollInterval, ...rest } = task as JsonObject & { pollInterval?: number };
  return {
    ...(rest as unknown as TaskView),
    ...(typeof pollInterval === "number" ? { pollIntervalMs: pollInterval } : {}),
  };
}

async function answerTask(client: AnyClient, taskId: string, task: TaskView, answered: Set<string>) {
  const requests = (task as TaskView & { inputRequests?: JsonObject }).inputRequests ?? {};
  const fresh = Object.fromEntries(Object.entries(requests).filter(([key]) => !answered.has(key)));
  if (Object.keys(fresh).length === 0) return;
  const inputResponses = await client.answerInputs(fresh);
  for (const key of Object.keys(fresh)) answered.add(key);
  await client.request("tasks/update", { taskId, inputResponses });
}

function handle(client: AnyClient, first: TaskView): TaskHandle {
  const { taskId } = first;
  const modern = client.era === "modern";
  const status = async (signal?: AbortSignal) => {
    const task = await client.request("tasks/get", { taskId }, signal ? { signal } : {});
    return modern ? (task as unknown as TaskView) : legacyView(task);
  };
  const cancel = async () => {
    await client.request("tasks/cancel", { taskId });
  };
  return {
    taskId,
    status: () => status(),
    cancel,
    async result(options = {}) {
      const { signal, onTask } = options;
      onTask?.(first);
      let task = first;
      const answered = new Set<string>();
      try {
        while (!TERMINAL.has(task.status)) {
          // 2026: input a task waits for is answered through the client's handlers, each key once (tasks.md).
          if (modern && task.status === "input_required") await answerTask(client, taskId, task, answered);
          await sleep(
            Math.min(Math.max(task.pollIntervalMs ?? 1_000, 10), 30_000),
            undefined,
            signal ? { signal } : {},
          );
          task = await status(signal);
          onTask?.(task);
          // 2025: input is asked on the tasks/result stream, so it is called as soon as the task waits for some.
          if (!modern && task.status === "input_required") break;
        }
      } catch (error) {
        if (signal?.aborted) await cancel().catch(() => undefined);
        throw error;
      }
      if (!modern) return client.request<CallToolResult>("tasks/result", { taskId }, signal ? { signal } : {});
      const ended = task as TaskView & { result?: CallToolResult; error?: JsonRpcError };
      if (ended.status === "completed") return ended.result ?? { content: [] };
      if (ended.status === "failed" && ended.error) throw McpError.fromJson(ended.error);
      throw new McpError(
        ErrorCode.InternalError,
        `Task ${taskId} was ${ended.status}${ended.statusMessage ? `: ${ended.statusMessage}` : ""}`,
      );
    },
  };
}
