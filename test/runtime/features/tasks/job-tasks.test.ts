// The tasks feature over a real REST job API on 127.0.0.1 (test/support/job-api.ts), served over real Streamable
// HTTP and driven by the runtime's client in both protocol eras: tasks made, polled to the upstream's result,
// cancelled, failed, expired, refused; one POST per call whatever happens after it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect, type McpClient } from "../../../../runtime/client/client.ts";
import { taskServing } from "../../../../runtime/features/tasks/feature.ts";
import { clientTasks, isHandle, startToolTask, type TaskView } from "../../../../runtime/features/tasks/task-client.ts";
import type { TaskBinding } from "../../../../runtime/package/catalog-types.ts";
import { createSpecServer } from "../../../../runtime/package/spec-server.ts";
import { McpError } from "../../../../runtime/protocol/errors.ts";
import { serveHttp } from "../../../../runtime/transport/http/server.ts";
import { callUpstream } from "../../../../runtime/upstream/forward.ts";
import { type JobApi, startJobApi } from "../../../support/job-api.ts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const location: TaskBinding = { style: "location", poll: { headers: ["location"] }, cancel: { method: "DELETE" } };
const statusDoc: TaskBinding = {
  style: "status",
  poll: { headers: ["location"] },
  status: { pointer: "/state", completed: ["done"], failed: ["failed"], cancelled: ["cancelled"] },
  result: { pointer: "/result" },
};
const body = { contentType: "application/json", properties: ["mode", "rows"] };
const input = { type: "object" as const, properties: { mode: { type: "string" }, rows: { type: "number" } } };

let api: JobApi;
let url: string;
let close: () => Promise<void>;

async function serve(settings: { ttlMs?: number; waitMs?: number } = {}) {
  const server = createSpecServer(
    {
      server: { name: "jobs", version: "1.0.0" },
      upstream: { baseUrl: api.url },
      callUpstream,
      offers: { tools: true },
      catalog: () => ({
        tools: [
          { name: "export_rows", inputSchema: input, http: { method: "POST", path: "/exports", body, task: location } },
          {
            name: "export_status",
            inputSchema: input,
            http: { method: "POST", path: "/exports", body, task: statusDoc },
          },
          {
            name: "export_fields",
            inputSchema: input,
            http: { method: "POST", path: "/exports", fields: true, task: location },
          },
        ],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      }),
    },
    { jobs: taskServing({ ttlMs: settings.ttlMs ?? 60_000, waitMs: settings.waitMs ?? 10_000, pollIntervalMs: 20 }) },
  );
  const handle = await serveHttp(server, { port: 0 });
  return { url: handle.url, close: () => handle.close() };
}

beforeAll(async () => {
  api = await startJobApi(2);
  ({ url, close } = await serve());
});
afterAll(async () => {
  await close?.();
  await api?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("never done");
}

describe("2026-07-28 with the tasks extension", () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect({ url }, { capabilities: TASKS });
  });
  afterAll(() => client?.close());

  test("server/discover declares the extension", () => {
    expect(client.server.capabilities).toMatchObject({ extensions: { "io.modelcontextprotocol/tasks": {} } });
  });

  test("tools/call answers a task; tasks/get shows it completed with the upstream's result; one POST", async () => {
    const posts = api.starts();
    const created = await client.request("tools/call", { name: "export_rows", arguments: { rows: 7 } });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 60_000, pollIntervalMs: 20 });
    const taskId = created.taskId as string;
    const done = await until(
      () => client.request("tasks/get", { taskId }),
      (task) => task.status === "completed",
    );
    expect(done).toMatchObject({
      resultType: "complete",
      taskId,
      result: { structuredContent: { id: expect.any(String), rows: 7, format: "csv" } },
    });
    expect(api.starts()).toBe(posts + 1);
  });

  test("_fields is never sent upstream; it selects from the task's result", async () => {
    const created = await client.request("tools/call", {
      name: "export_fields",
      arguments: { rows: 3, _fields: ["rows"] },
    });
    expect(api.requests.at(-1)?.body).not.toContain("_fields");
    const done = await until(
      () => client.request("tasks/get", { taskId: created.taskId as string }),
      (task) => task.status === "completed",
    );
    expect((done.result as { structuredContent: unknown }).structuredContent).toEqual({ rows: 3 });
  });

  test("a status document: non-terminal values are working, the result is read at its pointer", async () => {
    const created = await client.request("tools/call", {
      name: "export_status",
      arguments: { mode: "status-doc", rows: 3 },
    });
    const done = await until(
      () => client.request("tasks/get", { taskId: created.taskId as string }),
      (task) => task.status === "completed",
    );
    expect(done.result).toMatchObject({ structuredContent: { rows: 3 } });
  });

  test("a poll answered 303 See Other: the result is fetched at its Location, in the same origin", async () => {
    const created = await client.request("tools/call", {
      name: "export_rows",
      arguments: { mode: "see-other", rows: 5 },
    });
    const done = await until(
      () => client.request("tasks/get", { taskId: created.taskId as string }),
      (task) => task.status === "completed",
    );
    expect(done.result).toMatchObject({ structuredContent: { rows: 5, url: expect.stringContaining("/files/") } });
    expect(api.requests.some((r) => r.path.endsWith("/result"))).toBe(true);
  });

  test("an upstream job that fails is completed with isError, carrying the upstream's error", async () => {
    const created = await client.request("tools/call", { name: "export_rows", arguments: { mode: "fail" } });
    const done = await until(
      () => client.request("tasks/get", { taskId: created.taskId as string }),
      (task) => task.status !== "working",
    );
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ isError: true });
    expect(JSON.stringify(done.result)).toContain("table is locked");
  });

  test("tasks/cancel cancels the upstream job (DELETE) and the task", async () => {
    const created = await client.request("tools/call", { name: "export_rows", arguments: { mode: "never" } });
    const taskId = created.taskId as string;
    expect(await client.request("tasks/cancel", { taskId })).toMatchObject({ resultType: "complete" });
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
    expect(api.requests.some((r) => r.method === "DELETE")).toBe(true);
  });

  test("a poll URL on another origin is refused: credentials never follow", async () => {
    const result = await client.request("tools/call", { name: "export_rows", arguments: { mode: "elsewhere" } });
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain("another origin");
  });

  test("an unknown task id is -32602", async () => {
    await expect(client.request("tasks/get", { taskId: "nope" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("2026-07-28 without the extension", () => {
  test("a client without tasks gets the final result when it arrives within --task-wait", async () => {
    const client = await connect({ url });
    const result = await client.callTool("export_rows", { rows: 5 });
    expect(result.structuredContent).toMatchObject({ rows: 5 });
    await client.close();
  });

  test("tasks/get from a client that did not declare the extension is -32021", async () => {
    const client = await connect({ url });
    await expect(client.request("tasks/get", { taskId: "x" })).rejects.toMatchObject({ code: -32021 });
    await client.close();
  });

  test("asking for task notifications without the extension is -32021", async () => {
    const client = await connect({ url });
    await expect(client.request("subscriptions/listen", { notifications: { taskIds: ["x"] } })).rejects.toMatchObject({
      code: -32021,
    });
    await client.close();
  });

  test("a job still running after --task-wait is -32021 naming the extension", async () => {
    const short = await serve({ waitMs: 100 });
    const client = await connect({ url: short.url });
    const error = await client.callTool("export_rows", { mode: "never" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: TASKS } });
    await client.close();
    await short.close();
  });
});

describe("2025-11-25 core tasks", () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect({ url }, { protocolVersion: "2025-11-25" });
  });
  afterAll(() => client?.close());

  test("initialize declares tasks for tools/call; the job tool says taskSupport optional", async () => {
    expect(client.server.capabilities).toMatchObject({ tasks: { requests: { tools: { call: {} } } } });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "export_rows")).toMatchObject({ execution: { taskSupport: "optional" } });
  });

  test("a task-augmented tools/call answers CreateTaskResult; tasks/result blocks until the result", async () => {
    const posts = api.starts();
    const created = await client.request("tools/call", {
      name: "export_rows",
      arguments: { rows: 9 },
      task: { ttl: 30_000 },
    });
    expect(created.task).toMatchObject({ status: "working", ttl: 30_000, pollInterval: 20 });
    const taskId = (created.task as { taskId: string }).taskId;
    const result = await client.request("tasks/result", { taskId });
    expect(result).toMatchObject({
      structuredContent: { rows: 9 },
      _meta: { "io.modelcontextprotocol/related-task": { taskId } },
    });
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ status: "completed" });
    expect(api.starts()).toBe(posts + 1);
    const { tasks } = await client.request("tasks/list", {});
    expect((tasks as Array<{ taskId: string }>).map((task) => task.taskId)).toContain(taskId);
  });

  test("a task is its session's: another session is told it does not exist, and does not list it", async () => {
    const created = await client.request("tools/call", { name: "export_rows", arguments: {}, task: {} });
    const taskId = (created.task as { taskId: string }).taskId;
    const other = await connect({ url }, { protocolVersion: "2025-11-25" });
    await expect(other.request("tasks/get", { taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(other.request("tasks/cancel", { taskId })).rejects.toMatchObject({ code: -32602 });
    expect((await other.request("tasks/list", {})).tasks).toEqual([]);
    await other.close();
  });

  test("a failed upstream job is a failed task; tasks/result gives the isError result", async () => {
    const created = await client.request("tools/call", { name: "export_rows", arguments: { mode: "fail" }, task: {} });
    const taskId = (created.task as { taskId: string }).taskId;
    const result = await client.request("tasks/result", { taskId });
    expect(result).toMatchObject({ isError: true });
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ status: "failed" });
  });

  test("tasks/cancel of an ended task is -32602", async () => {
    const created = await client.request("tools/call", { name: "export_rows", arguments: {}, task: {} });
    const taskId = (created.task as { taskId: string }).taskId;
    await client.request("tasks/result", { taskId });
    await expect(client.request("tasks/cancel", { taskId })).rejects.toMatchObject({ code: -32602 });
  });

  test("a client without tasks gets the final result", async () => {
    const result = await client.callTool("export_rows", { rows: 4 });
    expect(result.structuredContent).toMatchObject({ rows: 4 });
  });
});

describe("time to live", () => {
  test("an upstream job that never finishes fails when the task's TTL passes", async () => {
    const short = await serve({ ttlMs: 1_000 });
    const client = await connect({ url: short.url }, { capabilities: TASKS });
    const created = await client.request("tools/call", { name: "export_rows", arguments: { mode: "never" } });
    const ended = await until(
      () => client.request("tasks/get", { taskId: created.taskId as string }),
      (task) => task.status !== "working",
    );
    expect(ended).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(JSON.stringify(ended)).toContain("--task-ttl");
    await client.close();
    await short.close();
  });
});

for (const version of ["2026-07-28", "2025-11-25"]) {
  describe(`the runtime client with clientTasks, ${version}`, () => {
    let client: McpClient;
    beforeAll(async () => {
      client = await connect({ url }, { protocolVersion: version, tasks: clientTasks });
    });
    afterAll(() => client?.close());

    test("callTool awaits the task to the upstream's result, reporting its status on the way", async () => {
      const posts = api.starts();
      const seen: TaskView[] = [];
      const onTask = (task: { status: string }) => seen.push(task as TaskView);
      const result = await client.callTool("export_rows", { rows: 11 }, { onTask });
      expect(result.structuredContent).toMatchObject({ rows: 11 });
      expect(seen[0]).toMatchObject({ status: "working" });
      expect(seen.at(-1)?.status).toBe("completed");
      expect(api.starts()).toBe(posts + 1);
    });

    test("aborting the call cancels the task, and the upstream job", async () => {
      const deletes = api.requests.filter((r) => r.method === "DELETE").length;
      const abort = new AbortController();
      const call = client.callTool("export_rows", { mode: "never" }, { signal: abort.signal });
      setTimeout(() => abort.abort(), 200);
      await expect(call).rejects.toThrow();
      await until(
        async () => api.requests.filter((r) => r.method === "DELETE").length,
        (count) => count === deletes + 1,
      );
    });

    test("startToolTask gives a handle to poll, read and cancel", async () => {
      const started = await startToolTask(client, "export_rows", { rows: 2 });
      if (!isHandle(started)) throw new Error("expected a task handle");
      expect((await started.status()).taskId).toBe(started.taskId);
      expect((await started.result()).structuredContent).toMatchObject({ rows: 2 });
      const never = await startToolTask(client, "export_rows", { mode: "never" });
      if (!isHandle(never)) throw new Error("expected a task handle");
      await never.cancel();
      expect((await never.status()).status).toBe("cancelled");
    });
  });
}
