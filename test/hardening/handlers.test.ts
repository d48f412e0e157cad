/**
 * Handlers that misbehave: one that throws, one that never returns (timeout and cancellation must
 * free its request), one whose result breaks its outputSchema, one that floods progress, and a client
 * that hangs up mid-stream. Real server processes on stdio and HTTP.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callLine, HOSTILE_SERVER, MODERN_META, modernPost, startHttpProcess, startStdio } from "./wire.ts";

const TIMEOUT_MS = 300;
// The flood tests get servers of their own whose handlers may run this long: on a loaded machine the
// flood outlasts TIMEOUT_MS, and its handler would be aborted part way (19,000 of 20,000 got out).
const FLOOD_TIMEOUT_MS = "60000";
// Progress notifications sent inside one TIMEOUT_MS handler: a flood, yet small enough to finish in time
// on a loaded 2-core machine (20,000 did not: 14,000 got out before the deadline with two test workers).
const FLOOD = 5_000;

describe("misbehaving handlers on stdio", () => {
  const server = startStdio(HOSTILE_SERVER, { HANDLER_TIMEOUT_MS: String(TIMEOUT_MS) });
  afterAll(() => server.stop());
  const answer = async (id: string) =>
    (await server.waitFor((m) => m.some((x) => x.id === id))).find((x) => x.id === id)!;

  it("a throwing handler (Error or not) is an isError result; the server carries on", async () => {
    await server.write(callLine("t1", "throws", {}) + callLine("t2", "throws_non_error", {}) + callLine("t3"));
    expect((await answer("t1")).result).toMatchObject({ isError: true });
    expect((await answer("t2")).result).toMatchObject({ isError: true });
    expect((await answer("t3")).result).toMatchObject({ content: [{ text: "tt3" }] });
  });

  it("a result that breaks outputSchema is an isError result, never passed on", async () => {
    await server.write(callLine("o1", "bad_output", {}));
    const { result } = await answer("o1");
    expect(result).toMatchObject({ isError: true });
    expect(result?.structuredContent).toBeUndefined();
  });

  it("50 handlers that never return time out with -32001, are aborted, and their ids are free again", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `h${i}`);
    const started = Date.now();
    await server.write(ids.map((id) => callLine(id, "hang", {})).join(""));
    const all = await server.waitFor((m) => ids.every((id) => m.some((x) => x.id === id)));
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5_000);
    for (const id of ids) expect(all.find((x) => x.id === id)?.error?.code).toBe(-32001);
    // The same ids once more: had a slot not been freed, these would be refused as duplicates.
    await server.write(ids.map((id) => callLine(id)).join(""));
    await server.waitFor((m) => ids.every((id) => m.filter((x) => x.id === id).length === 2));
    for (const id of ids) expect(server.messages.filter((x) => x.id === id)[1].result).toBeDefined();
    await server.write(callLine("s1", "stats", {}));
    const stats = JSON.parse((await answer("s1")).result?.content?.[0].text ?? "{}");
    expect(stats.hangAborted).toBe(stats.hangStarted);
  });

  it("a cancelled handler gets no response, is aborted, and its id is free again", async () => {
    await server.write(callLine("c1", "hang", {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1"}}\n');
    await server.write(callLine("c1"));
    const reply = await answer("c1");
    expect(reply.result).toMatchObject({ content: [{ text: "tc1" }] });
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 100)); // past the timeout: still one answer
    expect(server.messages.filter((x) => x.id === "c1")).toHaveLength(1);
  });

  it("a flood of 20,000 progress notifications arrives whole and in order, then the result", async () => {
    const flooding = startStdio(HOSTILE_SERVER, { HANDLER_TIMEOUT_MS: FLOOD_TIMEOUT_MS });
    try {
      await floodOver(flooding);
    } finally {
      await flooding.stop();
    }
  }, 60_000);
});

async function floodOver(server: ReturnType<typeof startStdio>): Promise<void> {
  const before = server.messages.length;
  const line = JSON.stringify({
    jsonrpc: "2.0",
    id: "f1",
    method: "tools/call",
    params: { name: "flood", arguments: { count: 20_000 }, _meta: { ...MODERN_META, progressToken: "p" } },
  });
  await server.write(`${line}\n${callLine("f2")}`);
  await server.waitFor((m) => m.some((x) => x.id === "f1"), 60_000);
  const progress = server.messages
    .slice(before)
    .filter((x) => x.method === "notifications/progress")
    .map((x) => x.params?.progress as number);
  expect(progress).toHaveLength(20_000);
  expect(progress.every((p, i) => p === i + 1)).toBe(true);
  const f2 = await server.waitFor((m) => m.some((x) => x.id === "f2"));
  expect(f2.find((x) => x.id === "f2")?.result).toBeDefined();
}

describe("a stdio client that disconnects mid-stream", () => {
  it.each([
    ["closes stdin", false],
    ["closes stdin and stops reading stdout (EPIPE)", true],
  ])(
    "%s during a progress flood: the server exits cleanly",
    async (_label, dropStdout) => {
      const server = startStdio(HOSTILE_SERVER);
      const line = JSON.stringify({
        jsonrpc: "2.0",
        id: "flood",
        method: "tools/call",
        params: { name: "flood", arguments: { count: 10_000_000 }, _meta: { ...MODERN_META, progressToken: "p" } },
      });
      await server.write(`${line}\n`);
      await server.waitFor((m) => m.length >= 10);
      if (dropStdout) server.child.stdout.destroy();
      server.child.stdin.end();
      const code = await Promise.race([
        server.exited,
        new Promise((resolve) => setTimeout(() => resolve("hung"), 10_000)),
      ]);
      if (code === "hung") await server.stop();
      expect(code).toBe(0);
      expect(server.stderr()).not.toMatch(/Error|at .*:\d+:\d+/);
    },
    20_000,
  );
});

describe("misbehaving handlers and clients over HTTP", () => {
  let server: Awaited<ReturnType<typeof startHttpProcess>>;
  let flooding: Awaited<ReturnType<typeof startHttpProcess>>;
  beforeAll(async () => {
    [server, flooding] = await Promise.all([
      startHttpProcess(HOSTILE_SERVER, { HANDLER_TIMEOUT_MS: String(TIMEOUT_MS) }),
      startHttpProcess(HOSTILE_SERVER, { HANDLER_TIMEOUT_MS: FLOOD_TIMEOUT_MS }),
    ]);
  });
  afterAll(async () => {
    await server?.stop();
    await flooding?.stop();
  });

  const call = async (id: string, name: string, args: Record<string, unknown> = {}, meta = {}, to = server) => {
    const { body, headers } = modernPost(id, name, args, meta);
    const response = await fetch(to.url, { method: "POST", headers, body });
    return { status: response.status, text: await response.text() };
  };
  const stats = async () => JSON.parse(JSON.parse((await call("s", "stats")).text).result.content[0].text);

  it("throwing, hanging and bad-output handlers each get their answer", async () => {
    const [thrown, hung, bad] = await Promise.all([call("1", "throws"), call("2", "hang"), call("3", "bad_output")]);
    expect(JSON.parse(thrown.text)).toMatchObject({ id: "1", result: { isError: true } });
    expect(hung.text).toContain('"code":-32001');
    expect(JSON.parse(bad.text)).toMatchObject({ id: "3", result: { isError: true } });
  });

  it("a progress flood streams over SSE and ends with the result", async () => {
    const { status, text } = await call("f", "flood", { count: FLOOD }, { progressToken: "p" }, flooding);
    expect(status).toBe(200);
    const progress = [...text.matchAll(/"progress":(\d+)/g)].map((m) => Number(m[1]));
    expect(progress).toHaveLength(FLOOD);
    expect(progress.every((p, i) => p === i + 1)).toBe(true);
    const last = text.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toContain('"id":"f"');
    expect(last).toContain(`flooded ${FLOOD}`);
  }, 60_000);

  it("a client that hangs up mid-stream aborts the handler; the server carries on", async () => {
    const before = (await stats()).floodAborted;
    const { body, headers } = modernPost("gone", "flood", { count: 10_000_000 }, { progressToken: "p" });
    await new Promise<void>((resolve, reject) => {
      const req = request(server.url, { method: "POST", headers }, (res) => {
        let seen = 0;
        res.on("data", () => {
          if (++seen === 5) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on("error", () => {});
      req.once("close", () => resolve());
      req.on("error", reject);
      req.end(body);
    });
    const deadline = Date.now() + 10_000;
    while ((await stats()).floodAborted === before) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(JSON.parse((await call("after", "echo", { text: "ok" })).text)).toMatchObject({
      result: { content: [{ text: "ok" }] },
    });
  }, 30_000);
});
