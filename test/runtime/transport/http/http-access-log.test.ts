// Issue 27 item 15: the JSON access line keeps every client-chosen value bounded. One request naming a
// 3 MB method (or tool) used to write a 3 MB line to the server's stderr. A real server process.
import { afterAll, beforeAll, expect, test } from "vitest";
import { MAX_LOG_VALUE_CHARS } from "../../../../runtime/server/log.ts";
import { modernHeaders, modernMeta, rawPost } from "../../helpers.ts";
import { type HttpProcess, startHttpProcess } from "../../http-process.ts";

const HUGE = "m".repeat(3_000_000);
let server: HttpProcess;

beforeAll(async () => {
  server = await startHttpProcess({ LOG_FORMAT: "json" });
});

afterAll(async () => {
  await server?.stop();
});

async function accessLines(count: number): Promise<Array<Record<string, unknown>>> {
  for (let waited = 0; ; waited += 50) {
    const lines = server
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'));
    if (lines.length >= count || waited > 5_000) return lines.map((line) => JSON.parse(line));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a 3 MB method or tool name gives an access line of bounded length", async () => {
  const legacy = await rawPost(server.url, { jsonrpc: "2.0", id: 1, method: HUGE, params: {} });
  expect(legacy.status).toBe(400);
  const call = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: HUGE, arguments: {}, _meta: modernMeta() },
  };
  const modern = await rawPost(server.url, call, modernHeaders("tools/call"));
  expect(modern.status).toBe(400);
  const lines = await accessLines(2);
  expect(lines).toHaveLength(2);
  for (const line of server.stderr().split("\n")) expect(line.length).toBeLessThan(1_000);
  expect(lines[0].method).toBe(
    `${"m".repeat(MAX_LOG_VALUE_CHARS)}...(${HUGE.length - MAX_LOG_VALUE_CHARS} more characters)`,
  );
  expect(lines[1]).toMatchObject({ method: "tools/call", tool: expect.stringMatching(/^m{128}\.\.\.\(/) });
});
