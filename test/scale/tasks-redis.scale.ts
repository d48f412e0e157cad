// Tasks shared by instances (issue 30): two processes of the generated jobs package with the tasks and redis
// features, one real redis-server and a real job API. A task made on one instance is polled, completed and
// read on the other; one made on an instance killed (SIGKILL) mid-job still completes, polled by the other.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { connect, type McpClient } from "../../runtime/client/client.ts";
import { REPO_ROOT } from "../conformance/harness.ts";
import { freePort } from "../support/free-port.ts";
import { type JobApi, startJobApi } from "../support/job-api.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import { type Instance, startInstance, stopInstance } from "./cluster.ts";

const OUT = join(REPO_ROOT, "test/.out", `tasks-redis-${process.pid}`);
const PKG = join(OUT, "jobs");
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const ARGS = { reportId: "r1", format: "csv" };

let redis: RedisServer;
let api: JobApi;
let a: Instance;
let b: Instance;
const clients: McpClient[] = [];

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const generate = ["generate", join(REPO_ROOT, "specs/jobs.yaml"), "--out", PKG, "--features", "tasks,redis"];
  execFileSync(process.execPath, [join(REPO_ROOT, "bin/mcpgen.js"), ...generate]);
  [redis, api] = await Promise.all([startRedis(), startJobApi(6)]);
  const options = { upstream: api.url, args: ["--task-store", redis.url, "--task-poll-interval", "150"] };
  [a, b] = await Promise.all([
    startInstance(PKG, await freePort(), options),
    startInstance(PKG, await freePort(), options),
  ]);
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const instance of [a, b]) if (instance) await stopInstance(instance);
  await Promise.all([redis?.stop(), api?.close()]);
  rmSync(OUT, { recursive: true, force: true });
});

async function client(instance: Instance): Promise<McpClient> {
  const made = await connect({ url: instance.url }, { capabilities: TASKS });
  clients.push(made);
  return made;
}

async function completed(on: McpClient, taskId: string) {
  for (let i = 0; i < 200; i++) {
    const task = await on.request("tasks/get", { taskId });
    if (task.status !== "working") return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${taskId} never ended`);
}

test("a task made on one instance is completed and read on the other", async () => {
  const posts = api.starts();
  const created = await (await client(a)).request("tools/call", { name: "createExport", arguments: ARGS });
  expect(created).toMatchObject({ resultType: "task", status: "working" });
  const done = await completed(await client(b), created.taskId as string);
  expect(done).toMatchObject({ status: "completed", result: { structuredContent: { url: expect.any(String) } } });
  expect(api.starts()).toBe(posts + 1);
});

test("the instance that made a task is killed mid-job: the other polls it to the end", async () => {
  const onA = await client(a);
  const created = await onA.request("tools/call", { name: "createExport", arguments: ARGS });
  const job = [...api.jobs.values()].at(-1);
  a.child.kill("SIGKILL");
  await a.exited;
  expect(job?.polls).toBeLessThan(6); // still running when its instance died
  const done = await completed(await client(b), created.taskId as string);
  expect(done).toMatchObject({ status: "completed", result: { structuredContent: { url: expect.any(String) } } });
});
