/**
 * Load: 10,000 tool calls in flight at once, over stdio and over HTTP, against a real server process.
 * Every call is answered exactly once with its own id (none lost, none duplicated), and the server's
 * memory after a second round is about what it was after the first (nothing kept per request).
 * LOAD_CALLS raises the count (npm run test:fuzz).
 */
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callLine, HOSTILE_SERVER, modernPost, startHttpProcess, startStdio } from "./wire.ts";

const CALLS = Number(process.env.LOAD_CALLS ?? 10_000);
/** Growth allowed between two equal rounds: far below what keeping anything per request would cost. */
const MAX_GROWTH = 64 * 1024 * 1024;

describe(`${CALLS} calls in flight over stdio`, () => {
  const server = startStdio(HOSTILE_SERVER, {}, ["--expose-gc"]);
  afterAll(() => server.stop());

  async function round(tag: string): Promise<void> {
    const before = server.messages.length;
    const ids = Array.from({ length: CALLS }, (_, i) => `${tag}-${i}`);
    await server.write(ids.map((id) => callLine(id)).join(""));
    const all = await server.waitFor((m) => m.length - before >= CALLS, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a duplicate would arrive right behind
    const fresh = all.slice(before);
    expect(fresh).toHaveLength(CALLS);
    const seen = new Map(fresh.map((m) => [m.id, m]));
    expect(seen.size).toBe(CALLS);
    for (const id of ids) expect(seen.get(id)?.result).toMatchObject({ content: [{ text: `t${id}` }] });
  }
  const rss = async (id: string) => {
    await server.write(callLine(id, "gc", {}));
    const all = await server.waitFor((m) => m.some((x) => x.id === id));
    return Number(all.find((x) => x.id === id)?.result?.content?.[0].text);
  };

  it("every call is answered exactly once, and memory stays flat", async () => {
    await round("warm");
    const first = await rss("rss1");
    await round("again");
    const second = await rss("rss2");
    expect(second - first).toBeLessThan(MAX_GROWTH);
  }, 240_000);
});

describe(`${CALLS} calls in flight over HTTP`, () => {
  let server: Awaited<ReturnType<typeof startHttpProcess>>;
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  beforeAll(async () => {
    server = await startHttpProcess(HOSTILE_SERVER, {}, ["--expose-gc"]);
  });
  afterAll(async () => {
    agent.destroy();
    await server?.stop();
  });

  const call = (id: string, name = "echo", args: Record<string, unknown> = { text: `t${id}` }) =>
    new Promise<{ status: number; body: { id?: unknown; result?: { content?: Array<{ text: string }> } } }>(
      (resolve, reject) => {
        const { body, headers } = modernPost(id, name, args);
        const req = request(server.url, { method: "POST", headers, agent }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end(body);
      },
    );

  async function round(tag: string): Promise<void> {
    const ids = Array.from({ length: CALLS }, (_, i) => `${tag}-${i}`);
    const answers = await Promise.all(ids.map((id) => call(id)));
    const seen = new Set<unknown>();
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.body.id).toBe(ids[i]);
      expect(answer.body.result?.content?.[0].text).toBe(`t${ids[i]}`);
      seen.add(answer.body.id);
    });
    expect(seen.size).toBe(CALLS);
  }
  const rss = async () => Number((await call("rss", "gc", {})).body.result?.content?.[0].text);

  it("every call is answered exactly once with its own id, and memory stays flat", async () => {
    await round("warm");
    const first = await rss();
    await round("again");
    const second = await rss();
    expect(second - first).toBeLessThan(MAX_GROWTH);
  }, 240_000);
});
