// A hand-written handler's long work as a task (ctx.task.run): the call answers with the task at once, the
// work reports its status, asks the client for input through the task (tasks/update in 2026, on tasks/result in
// 2025) and ends with its result; cancelled, its signal aborts; a client without tasks gets the work inline.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect } from "../../../../runtime/client/client.ts";
import { taskServing } from "../../../../runtime/features/tasks/feature.ts";
import { clientTasks } from "../../../../runtime/features/tasks/task-client.ts";
import type { SpecContext, TaskControl } from "../../../../runtime/handler-api.ts";
import { createSpecServer } from "../../../../runtime/package/spec-server.ts";
import { serveHttp } from "../../../../runtime/transport/http/server.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const ASK = {
  name: {
    method: "elicitation/create",
    params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
  },
};
let aborted = 0;
let url: string;
let close: () => Promise<void>;

async function crunch(args: Record<string, unknown>, ctx: SpecContext) {
  if (!ctx.task) throw new Error("no tasks feature");
  return ctx.task.run(async (task: TaskControl) => {
    task.status("crunching");
    if (args.forever) {
      await new Promise((resolve) => task.signal.addEventListener("abort", resolve, { once: true }));
      aborted++;
      return { content: [] };
    }
    const answers = await task.requestInputs(ASK as never);
    const name = (answers.name as { content?: { name?: string } }).content?.name;
    return { content: [{ type: "text" as const, text: `crunched for ${name}` }], structuredContent: { name } };
  });
}

beforeAll(async () => {
  const server = createSpecServer(
    {
      server: { name: "handler-tasks", version: "1.0.0" },
      offers: { tools: true },
      catalog: () => ({
        tools: [
          {
            name: "crunch",
            inputSchema: { type: "object", properties: { forever: { type: "boolean" } } },
            execution: { taskSupport: "optional" },
          },
        ],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      }),
    },
    {
      handlers: { tools: { crunch: crunch as never } },
      jobs: taskServing({ ttlMs: 60_000, waitMs: 1_000, pollIntervalMs: 20 }),
    },
  );
  const handle = await serveHttp(server, { port: 0 });
  ({ url } = handle);
  close = () => handle.close();
});
afterAll(() => close?.());

const elicitation = { elicitation: async () => ({ action: "accept" as const, content: { name: "Ada" } }) };

describe("2026-07-28", () => {
  test("the task waits for input (input_required), tasks/update answers it, the task completes", async () => {
    const client = await connect({ url }, { capabilities: TASKS });
    const created = await client.request("tools/call", { name: "crunch", arguments: {} });
    expect(created).toMatchObject({ resultType: "task" });
    const taskId = created.taskId as string;
    let task = await client.request("tasks/get", { taskId });
    for (let i = 0; task.status !== "input_required" && i < 100; i++)
      task = await client.request("tasks/get", { taskId });
    expect(task).toMatchObject({ status: "input_required", inputRequests: ASK });
    await client.request("tasks/update", {
      taskId,
      inputResponses: { name: { action: "accept", content: { name: "Lin" } } },
    });
    for (let i = 0; task.status !== "completed" && i < 100; i++) task = await client.request("tasks/get", { taskId });
    expect(task.result).toMatchObject({ structuredContent: { name: "Lin" } });
    await client.close();
  });

  test("clientTasks answers the task's input through the client's handlers", async () => {
    const client = await connect({ url }, { tasks: clientTasks, handlers: elicitation });
    expect((await client.callTool("crunch", {})).structuredContent).toEqual({ name: "Ada" });
    await client.close();
  });

  test("tasks/cancel aborts the work's signal", async () => {
    const client = await connect({ url }, { capabilities: TASKS });
    const before = aborted;
    const created = await client.request("tools/call", { name: "crunch", arguments: { forever: true } });
    await client.request("tasks/cancel", { taskId: created.taskId as string });
    expect(await client.request("tasks/get", { taskId: created.taskId as string })).toMatchObject({
      status: "cancelled",
    });
    for (let i = 0; aborted === before && i < 100; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe(before + 1);
    await client.close();
  });

  test("a client without tasks gets the work inline (its input an MRTR round)", async () => {
    const client = await connect({ url }, { handlers: elicitation });
    expect((await client.callTool("crunch", {})).structuredContent).toEqual({ name: "Ada" });
    await client.close();
  });
});

describe("2025-11-25", () => {
  test("a task-augmented call; the input is asked on tasks/result; the result follows", async () => {
    const client = await connect({ url }, { protocolVersion: "2025-11-25", tasks: clientTasks, handlers: elicitation });
    expect((await client.callTool("crunch", {})).structuredContent).toEqual({ name: "Ada" });
    await client.close();
  });

  test("a client without tasks gets the work inline (its input a real elicitation)", async () => {
    const client = await connect({ url }, { protocolVersion: "2025-11-25", handlers: elicitation });
    expect((await client.callTool("crunch", {})).structuredContent).toEqual({ name: "Ada" });
    await client.close();
  });
});
