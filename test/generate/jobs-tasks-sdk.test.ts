/**
 * The generated jobs package (specs/jobs.yaml: createExport answers 202 + Location) driven by the
 * official SDK clients' tasks support over stdio and Streamable HTTP, against a real job API whose Location
 * answers 202 twice, then the result: v1's experimental tasks API (2025-11-25 task-augmented calls), v2's
 * 2025-era task requests (typed by its schemas), and v2 in 2026-07-28 without the extension (2.4.0 reads no
 * task result), which gets the result within --task-wait. The upstream sees one POST per call.
 */
import {
  specTypeSchemas,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobApi, startJobApi } from "../support/job-api.ts";
import { ROOT, type RunningHttpServer, startHttpServer } from "./support.ts";

const PKG = `${ROOT}/generated/jobs`;
const ARGS = { reportId: "r1", format: "csv" };
const schemas = specTypeSchemas as unknown as Record<string, never>;

let api: JobApi;
let http: RunningHttpServer;
beforeAll(async () => {
  api = await startJobApi(2);
  http = await startHttpServer(PKG, ["--base-url", api.url, "--task-poll-interval", "100"], { JOBS_TOKEN: "t" });
});
afterAll(async () => {
  await http?.stop();
  await api?.close();
});

const stdio = (extra: string[] = []) => ({
  command: process.execPath,
  args: ["--import", "tsx", `${PKG}/src/server.ts`, "--base-url", api.url, "--task-poll-interval", "100", ...extra],
  cwd: ROOT,
  stderr: "pipe" as const,
});

for (const transport of ["stdio", "http"] as const) {
  describe(`official SDK clients' tasks over ${transport}`, () => {
    it("v1: experimental.tasks.callToolStream creates a task, sees it work, then gets the upstream's result", async () => {
      const client = new V1Client({ name: "v1-tasks", version: "1.0.0" }, { capabilities: {} });
      await client.connect(transport === "stdio" ? new V1Stdio(stdio()) : new V1Http(new URL(http.url)));
      await client.listTools(); // the client reads each tool's execution.taskSupport from the listing
      const posts = api.starts();
      const kinds: string[] = [];
      let result: Record<string, unknown> | undefined;
      for await (const message of client.experimental.tasks.callToolStream(
        { name: "createExport", arguments: ARGS },
        CallToolResultSchema,
      )) {
        kinds.push(message.type);
        if (message.type === "result") result = message.result as Record<string, unknown>;
        if (message.type === "error") throw message.error;
      }
      expect(kinds[0]).toBe("taskCreated");
      expect(kinds).toContain("taskStatus");
      expect(result?.structuredContent).toMatchObject({ url: expect.stringContaining("/files/") });
      expect(api.starts()).toBe(posts + 1);
      await client.close();
    });

    it("v2 (2025-11-25): a task-augmented tools/call, tasks/get and tasks/result, typed by the SDK's schemas", async () => {
      const client = new V2Client(
        { name: "v2-tasks", version: "1.0.0" },
        { capabilities: {}, versionNegotiation: { mode: "legacy" } },
      );
      await client.connect(transport === "stdio" ? new V2Stdio(stdio()) : new V2Http(new URL(http.url)));
      const posts = api.starts();
      const created = (await client.request(
        { method: "tools/call", params: { name: "createExport", arguments: ARGS, task: { ttl: 60_000 } } },
        schemas.CreateTaskResult,
      )) as unknown as { task: { taskId: string; status: string } };
      expect(created.task.status).toBe("working");
      const { taskId } = created.task;
      const seen = (await client.request({ method: "tasks/get", params: { taskId } }, schemas.GetTaskResult)) as {
        taskId: string;
      };
      expect(seen.taskId).toBe(taskId);
      const result = (await client.request({ method: "tasks/result", params: { taskId } }, schemas.CallToolResult)) as {
        structuredContent?: unknown;
      };
      expect(result.structuredContent).toMatchObject({ url: expect.stringContaining("/files/") });
      expect(api.starts()).toBe(posts + 1);
      await client.close();
    });

    it("v2 (2026-07-28, no tasks extension): the result, once the job ends within --task-wait", async () => {
      const client = new V2Client(
        { name: "v2-plain", version: "1.0.0" },
        { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(transport === "stdio" ? new V2Stdio(stdio()) : new V2Http(new URL(http.url)));
      const posts = api.starts();
      const result = await client.callTool({ name: "createExport", arguments: ARGS });
      expect(result.structuredContent).toMatchObject({ url: expect.stringContaining("/files/") });
      expect(api.starts()).toBe(posts + 1);
      await client.close();
    });
  });
}
