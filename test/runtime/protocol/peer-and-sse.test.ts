// Unit tests of the JSON-RPC peer (two peers wired back to back) and the SSE parser.
import { describe, expect, test } from "vitest";
import { JsonRpcPeer } from "../../../runtime/protocol/peer.ts";
import type { JsonRpcMessage } from "../../../runtime/protocol/types.ts";
import { type SseEvent, SseParser } from "../../../runtime/transport/http/sse.ts";

function pair(onRequest: ConstructorParameters<typeof JsonRpcPeer>[0]["onRequest"]) {
  const wire: JsonRpcMessage[] = [];
  // Delivery is asynchronous, as on a real channel.
  const server: JsonRpcPeer = new JsonRpcPeer({
    send: (message) => setImmediate(() => client.receive(message)),
    onRequest,
  });
  const client: JsonRpcPeer = new JsonRpcPeer({
    send: (message) => {
      wire.push(message);
      setImmediate(() => server.receive(message));
    },
  });
  return { client, server, wire };
}

describe("JsonRpcPeer", () => {
  test("correlates responses by id, including errors", async () => {
    const { client } = pair(async (request) => {
      if (request.method === "fail") throw Object.assign(new Error("nope"), {});
      return { echo: request.params };
    });
    const [a, b] = await Promise.all([client.request("x", { n: 1 }), client.request("x", { n: 2 })]);
    expect(a).toEqual({ echo: { n: 1 } });
    expect(b).toEqual({ echo: { n: 2 } });
    await expect(client.request("fail")).rejects.toMatchObject({ code: -32603, message: "nope" });
  });

  test("a timeout rejects with -32001 and announces notifications/cancelled; the handler sees the abort", async () => {
    let aborted = false;
    const { client, wire } = pair(
      (_request, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(signal.reason);
          }),
        ),
    );
    await expect(client.request("slow", {}, { timeoutMs: 30 })).rejects.toMatchObject({ code: -32001 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(wire.at(-1)).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "timeout" },
    });
    expect(aborted).toBe(true);
  });

  test("a cancelled incoming request gets no response", async () => {
    const sent: JsonRpcMessage[] = [];
    const peer = new JsonRpcPeer({
      send: (message) => sent.push(message),
      onRequest: (_request, signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    });
    peer.receive({ jsonrpc: "2.0", id: 5, method: "work" });
    peer.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([]);
  });

  test("close() fails outstanding requests; late responses are ignored", async () => {
    const peer = new JsonRpcPeer({ send: () => {} });
    const pending = peer.request("x");
    peer.close(new Error("gone"));
    await expect(pending).rejects.toThrow("gone");
    expect(() => peer.receive({ jsonrpc: "2.0", id: 1, result: {} })).not.toThrow();
    await expect(peer.request("y")).rejects.toThrow("gone");
  });
});

describe("SseParser", () => {
  test("parses data, ids, retry and comments across arbitrary chunk boundaries", () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((event) => events.push(event));
    const text =
      ': keep-alive\r\nid: 1\r\nretry: 2500\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: message\ndata: second\n\n';
    for (const char of text) parser.feed(char);
    expect(events).toEqual([
      { data: '{"a":\n1}', id: "1", event: undefined },
      { data: "second", id: undefined, event: "message" },
    ]);
    expect(parser.retryMs).toBe(2500);
    expect(parser.lastEventId).toBe("1");
  });

  test("an id-only event updates lastEventId without emitting", () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((event) => events.push(event));
    parser.feed("id: prime-0\n\n");
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe("prime-0");
  });
});
