// Issue 27 item 1: what a 2025-era session keeps of its client's initialize is bounded. clientInfo is cut
// to its schema's fields at fixed lengths; capabilities over the limit fail initialize (-32602). The heap
// measurement over a real process (40 sessions of 4 MiB) is test/hardening/session-memory.large.ts.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../../runtime/index.ts";
import {
  capabilitiesTooLarge,
  MAX_CAPABILITIES_CHARS,
  MAX_CLIENT_ICONS,
  MAX_CLIENT_NAME_CHARS,
  MAX_CLIENT_TEXT_CHARS,
} from "../../../runtime/server/client-declaration.ts";
import { buildDemoServer } from "../fixtures/demo-server.ts";
import { rawPost } from "../helpers.ts";

/** Just under the 4 MiB body cap once wrapped in an initialize request. */
const BIG = "x".repeat(4 * 1024 * 1024 - 4_096);

let handle: HttpServerHandle;

beforeAll(async () => {
  const server = buildDemoServer();
  server.tool({
    name: "client_info",
    inputSchema: { type: "object" },
    handler: (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify(ctx.clientInfo ?? null) }] }),
  });
  handle = await serveHttp(server);
});

afterAll(async () => {
  await handle?.close();
});

function initialize(clientInfo: unknown, capabilities: unknown = {}) {
  const params = { protocolVersion: "2025-11-25", capabilities, clientInfo };
  return rawPost(handle.url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
}

async function keptClientInfo(sessionId: string): Promise<Record<string, unknown>> {
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "client_info", arguments: {} } };
  const answer = await rawPost(handle.url, call, { "Mcp-Session-Id": sessionId });
  const text = (answer.json as { result: { content: Array<{ text: string }> } }).result.content[0].text;
  return JSON.parse(text);
}

test("a 4 MiB clientInfo is kept cut to its fields at fixed lengths", async () => {
  const icon = { src: "https://example.com/i.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" };
  const clientInfo = {
    name: BIG.slice(0, 1_000_000),
    version: "1.0.0",
    title: "T",
    description: BIG.slice(0, 2_000_000),
    websiteUrl: `https://example.com/${BIG.slice(0, 100_000)}`,
    icons: [{ src: `data:image/png;base64,${BIG.slice(0, 500_000)}` }, ...Array.from({ length: 9 }, () => icon)],
    extra: BIG.slice(0, 500_000),
  };
  const answer = await initialize(clientInfo);
  expect(answer.status).toBe(200);
  const kept = await keptClientInfo(answer.headers.get("mcp-session-id") ?? "");
  expect(kept).toEqual({
    name: "x".repeat(MAX_CLIENT_NAME_CHARS),
    version: "1.0.0",
    title: "T",
    description: "x".repeat(MAX_CLIENT_TEXT_CHARS),
    icons: Array.from({ length: MAX_CLIENT_ICONS }, () => icon),
  });
});

test("capabilities over the limit fail initialize with -32602; within it they are kept", async () => {
  const huge = await initialize({ name: "c", version: "1" }, { experimental: { blob: { data: BIG } } });
  expect(huge.json).toMatchObject({ error: { code: -32602, message: expect.stringContaining("capabilities") } });
  const deep = JSON.parse(`${'{"a":'.repeat(5_000)}{}${"}".repeat(5_000)}`);
  expect(capabilitiesTooLarge(deep)).toBe(true);
  const wide = { experimental: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, {}])) };
  expect(capabilitiesTooLarge(wide)).toBe(true);
  const fine = {
    roots: { listChanged: true },
    elicitation: { form: {} },
    experimental: { x: { y: "z".repeat(1_000) } },
  };
  expect(capabilitiesTooLarge(fine)).toBe(false);
  expect(JSON.stringify(fine).length).toBeLessThan(MAX_CAPABILITIES_CHARS);
  expect((await initialize({ name: "c", version: "1" }, fine)).status).toBe(200);
});
