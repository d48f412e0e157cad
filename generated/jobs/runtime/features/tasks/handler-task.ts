// A hand-written handler's long work as an MCP task (`ctx.task.run(work)`): when the client takes a task, the
// call answers with it at once and `work` runs on in this process, its status and input asked through the task
// (input_required until tasks/update answers, 2026, or until the client's tasks/result does, 2025); else `work`
// runs inline within the call. Such a task lives in the store (any instance reads it) but runs only here.
import { McpError } from "../../protocol/errors.ts";
import type { CallToolResult, InputRequest, InputResponse, Result } from "../../protocol/types.ts";
import type { HandlerContext, TaskControl, ToolHandlerResult } from "../../server/types.ts";
import { type TaskRequest, taskAnswer } from "./job-tool.ts";
import { ownerOf, type TaskRunner } from "./task-runner.ts";
import type { PendingInput } from "./task-store.ts";

type Work = (task: TaskControl) => Promise<ToolHandlerResult>;

/** Waits for every key of `requests`; answers to other keys are ignored (tasks.md: not outstanding). */
function pendingInput(
  requests: Record<string, InputRequest>,
  done: (all: Record<string, InputResponse>) => void,
): PendingInput {
  const got: Record<string, InputResponse> = {};
  const give = (responses: Record<string, InputResponse>) => {
    for (const key of Object.keys(requests)) if (Object.hasOwn(responses, key)) got[key] = responses[key];
    if (Object.keys(requests).every((key) => Object.hasOwn(got, key))) done(got);
  };
  return { requests, give };
}

export function handlerTask(runner: TaskRunner, ctx: HandlerContext, request: TaskRequest | undefined) {
  return {
    async run(work: Work): Promise<Result> {
      if (!request || request.untilDone) {
        const inline: TaskControl = {
          signal: ctx.signal,
          requestInputs: (r) => ctx.requestInputs(r),
          status: (m) => ctx.log("info", m),
        };
        return work(inline);
      }
      const ttlMs = Math.min(request.ttlMs ?? runner.settings.ttlMs, runner.settings.ttlMs);
      const record = await runner.create(ownerOf(ctx), ttlMs, undefined);
      const abort = runner.running(record.taskId, ttlMs);
      const update = async (change: Parameters<TaskRunner["update"]>[1]) => runner.update(record.taskId, change);
      const control: TaskControl = {
        signal: abort.signal,
        status: (statusMessage) => void update({ statusMessage }).catch(() => undefined),
        requestInputs: async (requests) => {
          const answered = new Promise<Record<string, InputResponse>>((resolve) =>
            runner.inputs.set(record.taskId, pendingInput(requests, resolve)),
          );
          await update({ status: "input_required", inputRequests: requests });
          const responses = await answered;
          runner.inputs.delete(record.taskId);
          await update({ status: "working", inputRequests: undefined });
          return responses;
        },
      };
      void work(control)
        .then((result) =>
          update({ status: "completed", result: { ...result, content: result.content ?? [] } as CallToolResult }),
        )
        .catch((error: unknown) =>
          update(
            error instanceof McpError
              ? { status: "failed", error: error.toJson() }
              : {
                  status: "completed",
                  result: {
                    isError: true,
                    content: [{ type: "text", text: `The task failed: ${(error as Error).message}` }],
                  },
                },
          ),
        )
        .finally(() => runner.inputs.delete(record.taskId));
      return taskAnswer(record);
    },
  };
}
