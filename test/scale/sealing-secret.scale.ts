// Issue 27 item 7: list cursors (and MRTR requestState, sealed the same way) open on every instance, not
// only the one that issued them. A generated server with 105 tools (tools/list pages hold 100) runs as
// real processes: three behind the package's own nginx.conf (round robin) sharing MCP_SEALING_SECRET;
// two sharing a Redis store and no secret (the store's is used); a rotation; a secret too short.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT } from "../conformance/harness.ts";
import { modernHeaders, modernMeta, rawPost } from "../runtime/helpers.ts";
import { freePort } from "../support/free-port.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import { type Instance, startCluster, startInstance, stopInstance } from "./cluster.ts";

const OUT = join(REPO_ROOT, "test/.out", `sealing-${process.pid}`);
const PKG = join(OUT, "many");
const OLD = "old-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const NEW = "new-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const UPSTREAM = "http://127.0.0.1:9";
let redis: RedisServer;
const stops: Array<() => Promise<void>> = [];

function manyToolsSpec(): string {
  const tools = Array.from(
    { length: 105 },
    (_, i) =>
      `  - name: tool_${i}\n    description: Tool ${i}.\n    inputSchema: { type: object }\n    http: { method: GET, path: /t/${i} }\n`,
  );
  return `server:\n  name: many\n  version: 1.0.0\n  description: Many tools.\npackage: { private: true }\nupstream:\n  baseUrl: https://api.example.com\ntools:\n${tools.join("")}`;
}

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "many.yaml"), manyToolsSpec());
  // Some instances share sessions through Redis (--session-store): the redis feature.
  const generate = ["generate", join(OUT, "many.yaml"), "--out", PKG, "--features", "redis"];
  execFileSync(process.execPath, [join(REPO_ROOT, "bin/mcpgen.js"), ...generate], { stdio: "ignore" });
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  await redis?.stop();
  rmSync(OUT, { recursive: true, force: true });
});

/** MCP_SEALING_SECRET as given; empty (unset) when undefined. */
const sealing = (secret: string | undefined) => ({ MCP_SEALING_SECRET: secret ?? "" });

async function instance(secret: string | undefined, sessionStore?: string): Promise<Instance> {
  const options = { upstream: UPSTREAM, env: sealing(secret), ...(sessionStore ? { sessionStore } : {}) };
  const made = await startInstance(PKG, await freePort(), options);
  stops.push(() => stopInstance(made));
  return made;
}

type Page = { status: number; tools?: unknown[]; nextCursor?: string; error?: { message: string } };

async function listTools(url: string, cursor?: string): Promise<Page> {
  const params = { ...(cursor ? { cursor } : {}), _meta: modernMeta() };
  const answer = await rawPost(
    url,
    { jsonrpc: "2.0", id: 1, method: "tools/list", params },
    modernHeaders("tools/list"),
  );
  const body = answer.json as { result?: { tools: unknown[]; nextCursor?: string }; error?: { message: string } };
  return { status: answer.status, ...body.result, ...(body.error ? { error: body.error } : {}) };
}

test("behind round-robin nginx, a cursor opens on every instance sharing MCP_SEALING_SECRET", async () => {
  const cluster = await startCluster(PKG, 3, { upstream: UPSTREAM, env: sealing(OLD) });
  stops.push(() => cluster.stop());
  const first = await listTools(cluster.url);
  expect(first.tools).toHaveLength(100);
  expect(first.nextCursor).toBeTruthy();
  // Six retries of page two go round the three instances twice: each must open the cursor.
  for (let i = 0; i < 6; i++) {
    const second = await listTools(cluster.url, first.nextCursor);
    expect(second.error?.message).toBeUndefined();
    expect(second.tools).toHaveLength(5);
  }
});

test("with --session-store and no MCP_SEALING_SECRET, instances seal with the store's secret", async () => {
  const [a, b] = await Promise.all([instance(undefined, redis.url), instance(undefined, redis.url)]);
  const first = await listTools(a.url);
  const second = await listTools(b.url, first.nextCursor);
  expect(second.error?.message).toBeUndefined();
  expect(second.tools).toHaveLength(5);
});

test("rotation: 'new,old' seals with new and still opens what old sealed; old alone cannot open new", async () => {
  const [before, after] = await Promise.all([instance(OLD), instance(`${NEW},${OLD}`)]);
  const sealedOld = (await listTools(before.url)).nextCursor;
  expect((await listTools(after.url, sealedOld)).tools).toHaveLength(5);
  const sealedNew = (await listTools(after.url)).nextCursor;
  expect((await listTools(before.url, sealedNew)).error?.message).toBe("Invalid cursor");
  // A process of its own (no shared secret) opens neither.
  const alone = await instance(undefined);
  expect((await listTools(alone.url, sealedOld)).error?.message).toBe("Invalid cursor");
});

test("a secret shorter than 32 characters is a usage error (exit 2)", () => {
  const run = spawnSync(process.execPath, [join(PKG, "dist/server.js"), "--http", "--port", "0"], {
    encoding: "utf8",
    env: { ...process.env, MCP_SEALING_SECRET: `${OLD},short` },
    timeout: 15_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("MCP_SEALING_SECRET must hold secrets of at least 32 characters");
});
