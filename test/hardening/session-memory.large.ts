// Issue 27 item 1, measured: 40 2025-era sessions opened with a 4 MiB clientInfo each (the attack that
// took a server from 54 MB to 4.1 GB over 1,022 sessions) grow a real server process's heap by far less
// than 64 MB, because a session keeps a bounded copy of what initialize declared.
import { afterAll, beforeAll, expect, test } from "vitest";
import { modernHeaders, modernMeta, rawPost } from "../runtime/helpers.ts";
import { type HttpProcess, startHttpProcess } from "../runtime/http-process.ts";

const SESSIONS = 40;
/** Just under the 4 MiB body cap once wrapped in an initialize request. */
const BIG = "x".repeat(4 * 1024 * 1024 - 4_096);
let server: HttpProcess;

beforeAll(async () => {
  server = await startHttpProcess({}, ["--expose-gc"]);
});

afterAll(async () => {
  await server?.stop();
});

async function heapUsed(): Promise<number> {
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "heap_used", arguments: {}, _meta: modernMeta() },
  };
  const answer = await rawPost(server.url, call, modernHeaders("tools/call", "heap_used"));
  return Number((answer.json as { result: { content: Array<{ text: string }> } }).result.content[0].text);
}

test(`${SESSIONS} initializes with a 4 MiB clientInfo grow the heap by well under 64 MB`, async () => {
  await heapUsed(); // loads what the first call loads, before the baseline
  const before = await heapUsed();
  const half = BIG.slice(0, BIG.length / 2);
  for (let i = 0; i < SESSIONS; i++) {
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: half, version: "1", description: half.slice(1) },
    };
    const answer = await rawPost(server.url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toBeTruthy();
  }
  const grown = (await heapUsed()) - before;
  expect(grown).toBeLessThan(16 * 1024 * 1024);
});
