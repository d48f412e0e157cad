// Job tools behind dynamic mode's call_tool (the task passes through; 2025 may augment call_tool when its target
// is a job tool) and code mode's execute (api.<tool>() awaits the job to its end, so programs stay simple).
import { afterAll, beforeAll, expect, test } from "vitest";
import { connect } from "../../../../runtime/client/client.ts";
import { codeFeature } from "../../../../runtime/features/code/feature.ts";
import { dynamicFeature } from "../../../../runtime/features/dynamic/feature.ts";
import { taskServing } from "../../../../runtime/features/tasks/feature.ts";
import { clientTasks } from "../../../../runtime/features/tasks/task-client.ts";
import { createSpecServer, type SpecServerOptions } from "../../../../runtime/package/spec-server.ts";
import { serveHttp } from "../../../../runtime/transport/http/server.ts";
import { callUpstream } from "../../../../runtime/upstream/forward.ts";
import { type JobApi, startJobApi } from "../../../support/job-api.ts";

let api: JobApi;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  api = await startJobApi(2);
});
afterAll(async () => {
  for (const close of closers) await close();
  await api?.close();
});

async function serve(options: SpecServerOptions): Promise<string> {
  const server = createSpecServer(
    {
      server: { name: "jobs", version: "1.0.0" },
      upstream: { baseUrl: api.url },
      callUpstream,
      offers: { tools: true },
      catalog: () => ({
        tools: [
          {
            name: "export_rows",
            description: "Export rows as CSV",
            inputSchema: { type: "object", properties: { rows: { type: "number" } } },
            http: {
              method: "POST",
              path: "/exports",
              body: { contentType: "application/json", properties: ["rows"] },
              task: { style: "location", poll: { headers: ["location"] } },
            },
          },
        ],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      }),
    },
    { ...options, jobs: taskServing({ ttlMs: 60_000, waitMs: 50, pollIntervalMs: 20 }) },
  );
  const handle = await serveHttp(server, { port: 0 });
  closers.push(() => handle.close());
  return handle.url;
}

test("dynamic mode: call_tool of a job tool answers its task, which the client awaits", async () => {
  const url = await serve({ mode: "dynamic", features: [dynamicFeature] });
  for (const protocolVersion of ["2026-07-28", "2025-11-25"]) {
    const client = await connect({ url }, { protocolVersion, tasks: clientTasks });
    const direct = await client.request("tools/call", {
      name: "call_tool",
      arguments: { name: "export_rows", arguments: { rows: 6 } },
      ...(protocolVersion === "2025-11-25" ? { task: {} } : {}),
    });
    const taskId = (protocolVersion === "2025-11-25" ? (direct.task as { taskId: string }) : direct).taskId;
    expect(typeof taskId).toBe("string");
    const awaited = await client.callTool("call_tool", { name: "export_rows", arguments: { rows: 8 } });
    if (protocolVersion === "2026-07-28") expect(awaited.structuredContent).toMatchObject({ rows: 8 });
    await client.close();
  }
});

test("code mode: api.<tool>() awaits the job to its end, past --task-wait", async () => {
  const url = await serve({ mode: "code", features: [codeFeature], allowDestructive: true });
  const client = await connect({ url }, { tasks: clientTasks });
  const posts = api.starts();
  const result = await client.callTool("execute", {
    code: "const answer = await api.export_rows({ rows: 12 }); return answer.rows;",
  });
  expect(result.isError).not.toBe(true);
  expect(JSON.stringify(result.content)).toContain("12");
  expect(api.starts()).toBe(posts + 1);
  await client.close();
});
