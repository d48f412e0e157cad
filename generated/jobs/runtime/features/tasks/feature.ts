// The `tasks` feature: tools bound to an upstream job (TaskBinding) answer with an MCP task that is polled to
// the upstream's result, in both protocol eras (docs/long-running.md).
import type { Feature, FeatureInput, FeatureSetup, JobServing, SharedStore } from "../../package/feature.ts";
import type { ServerCapabilities } from "../../protocol/types.ts";
import { jobToolHandler } from "./job-tool.ts";
import { taskMethods } from "./task-methods.ts";
import { TaskRunner } from "./task-runner.ts";
import { TASKS_EXTENSION } from "./task-shapes.ts";
import { memoryStore, taskStoreOver } from "./task-store.ts";

export const tasksFeature: Feature = { name: "tasks", configure };

const whole = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);

function configure({ values, earlier }: FeatureInput): FeatureSetup {
  return {
    server: {
      jobs: taskServing({
        ttlMs: whole(values["task-ttl"], 3_600_000),
        waitMs: whole(values["task-wait"], 60_000),
        pollIntervalMs: whole(values["task-poll-interval"], 2_000),
        shared: earlier.server?.sharedStore,
      }),
    },
  };
}

/** The feature's part of a server; `shared`: the redis feature's store (absent: tasks live in this process). */
export function taskServing(options: {
  ttlMs: number;
  waitMs: number;
  pollIntervalMs: number;
  shared?: SharedStore;
}): JobServing {
  const runner = new TaskRunner(taskStoreOver(options.shared ?? memoryStore()), options);
  const jobTools = new Set<string>();
  const capabilities = {
    // 2025-11-25: core tasks, for tools/call; 2026-07-28: the extension (each era ignores the other's key).
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    extensions: { [TASKS_EXTENSION]: {} },
  } as ServerCapabilities;
  return {
    handler(tool, upstream) {
      jobTools.add(tool.name);
      return jobToolHandler(runner, tool, upstream);
    },
    serve(server) {
      const methods = taskMethods(runner, jobTools);
      for (const era of ["modern", "legacy"] as const) Object.assign(server.methods[era], methods[era]);
      server.options.capabilities = { ...server.options.capabilities, ...capabilities };
    },
    toolFields: { execution: { taskSupport: "optional" } },
  };
}
