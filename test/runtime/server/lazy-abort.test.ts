// Cancellation without an AbortSignal per request (deadlines.ts, server.ts): the
// signal a handler reads late, copies or keeps must behave as if it had existed all along.
import { describe, expect, test } from "vitest";
import { createServer, type HandlerContext, JsonRpcPeer } from "../../../runtime/index.ts";
import type { JsonRpcMessage, JsonRpcRequest } from "../../../runtime/protocol/types.ts";
import { Deadlines, type Expiring, type Lane, LazyAbort } from "../../../runtime/server/deadlines.ts";
import { LegacySession } from "../../../runtime/server/session.ts";
import type { RequestChannel } from "../../../runtime/server/types.ts";

describe("LazyAbort", () => {
  test("a signal made after the abort is already aborted with the same reason", () => {
    const abort = new LazyAbort();
    const reason = new Error("gone");
    abort.abort(reason);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  test("a signal made before the abort fires its listeners, then the target, once", () => {
    const abort = new LazyAbort();
    const order: string[] = [];
    abort.signal.addEventListener("abort", () => order.push("listener"));
    abort.target = { abort: (reason) => order.push(`target:${(reason as Error).message}`) };
    abort.abort(new Error("first"));
    abort.abort(new Error("second"));
    expect(order).toEqual(["listener", "target:first"]);
    expect(abort.reason).toEqual(new Error("first"));
  });

  test("no reason means an AbortError, as AbortController.abort() gives", () => {
    const abort = new LazyAbort();
    abort.abort();
    expect(abort.reason).toBeInstanceOf(DOMException);
    expect((abort.reason as DOMException).name).toBe("AbortError");
    expect(abort.signal.reason).toBe(abort.reason);
  });
});

describe("Deadlines", () => {
  const entry = (name: string, expired: string[]): Expiring => ({
    expire: () => expired.push(name),
    deadlineAt: 0,
    deadlineLane: undefined as Lane | undefined,
    older: undefined,
    newer: undefined,
  });

  test("entries expire in order, per timeout length; deleted ones never do", async () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    const a = entry("a", expired);
    const b = entry("b", expired);
    const c = entry("c", expired);
    const d = entry("d", expired);
    deadlines.add(a, 40);
    deadlines.add(b, 40);
    deadlines.add(c, 10);
    deadlines.delete(b);
    await new Promise((resolve) => setTimeout(resolve, 20));
    deadlines.add(d, 40);
    expect(expired).toEqual(["c"]);
    await new Promise((resolve) => setTimeout(resolve, 35));
    expect(expired).toEqual(["c", "a"]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(expired).toEqual(["c", "a", "d"]);
  });

  test("out-of-range timeouts are clamped to 1 ms, as setTimeout does", async () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    deadlines.add(entry("infinite", expired), Number.POSITIVE_INFINITY);
    deadlines.add(entry("nan", expired), Number.NaN);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(expired).toEqual(["infinite", "nan"]);
  });

  test("an entry deleted from the middle leaves the others linked", async () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    const entries = ["a", "b", "c", "d"].map((name) => entry(name, expired));
    for (const item of entries) deadlines.add(item, 15);
    deadlines.delete(entries[1] as Expiring);
    deadlines.delete(entries[3] as Expiring);
    deadlines.delete(entries[3] as Expiring); // twice is harmless
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(expired).toEqual(["a", "c"]);
  });
});

describe("the server with a LazyAbort channel (the stdio path)", () => {
  const session = new LegacySession("lazy", () => {});
  session.protocolVersion = "2025-11-25";
  let kept: HandlerContext | undefined;
  const server = createServer({ name: "lazy", version: "1", handlerTimeoutMs: 40 });
  server.tool({
    name: "keep",
    inputSchema: { type: "object" },
    handler: (_args, ctx) => {
      kept = ctx;
      return { content: [] };
    },
  });
  server.tool({
    name: "copy_then_wait",
    inputSchema: { type: "object" },
    handler: (_args, ctx) => {
      const copy = { ...ctx };
      return new Promise((_, reject) => copy.signal.addEventListener("abort", () => reject(copy.signal.reason)));
    },
  });
  server.tool({
    name: "late_reader",
    inputSchema: { type: "object" },
    handler: async (_args, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { content: [{ type: "text", text: String(ctx.signal.aborted) }] };
    },
  });
  server.tool({ name: "hang", inputSchema: { type: "object" }, handler: () => new Promise(() => {}) });

  let id = 1;
  const call = (name: string, cancellation = new LazyAbort()) => {
    const channel: RequestChannel = {
      cancellation,
      get signal() {
        return cancellation.signal;
      },
      notify: () => {},
      session,
    };
    const request: JsonRpcRequest = { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name } };
    return server.handleRequest(request, channel);
  };

  test("a context kept after the answer has an aborted signal, made on demand", async () => {
    await call("keep");
    expect(kept?.signal.aborted).toBe(true);
    expect(kept?.signal.reason).toMatchObject({ message: "Request finished" });
    expect(Object.keys(kept ?? {})).toEqual([
      "signal",
      "requestId",
      "method",
      "meta",
      "era",
      "protocolVersion",
      "sessionId",
      "clientInfo",
      "clientCapabilities",
      "progress",
      "log",
      "elicit",
      "sample",
      "listRoots",
      "requestInputs",
    ]);
  });

  test("a copy of the context ({ ...ctx }) carries a signal the cancellation aborts", async () => {
    const cancellation = new LazyAbort();
    const pending = call("copy_then_wait", cancellation);
    setTimeout(() => cancellation.abort(new Error("client cancelled")), 5);
    await expect(pending).rejects.toThrow("client cancelled");
  });

  test("a signal first read after the cancellation is already aborted", async () => {
    const cancellation = new LazyAbort();
    const pending = call("late_reader", cancellation);
    cancellation.abort(new Error("cancelled early"));
    await expect(pending).rejects.toThrow("cancelled early");
  });

  test("an already cancelled request is rejected at once", async () => {
    const cancellation = new LazyAbort();
    cancellation.abort(new Error("before it started"));
    await expect(call("keep", cancellation)).rejects.toThrow("before it started");
  });

  test("a hung handler times out (the shared deadline timer), and later calls still answer", async () => {
    await expect(call("hang")).rejects.toMatchObject({ code: -32001, message: "tools/call timed out after 40 ms" });
    await expect(call("late_reader")).resolves.toEqual({ content: [{ type: "text", text: "false" }] });
    await expect(call("hang")).rejects.toMatchObject({ code: -32001 });
  });
});

describe("JsonRpcPeer with onLazyRequest", () => {
  test("notifications/cancelled aborts the LazyAbort (and a signal read from it) and suppresses the answer", async () => {
    const sent: JsonRpcMessage[] = [];
    let seen: LazyAbort | undefined;
    const peer = new JsonRpcPeer({
      send: (message) => sent.push(message),
      onLazyRequest: (_request, abort) => {
        seen = abort;
        return new Promise((_, reject) => abort.signal.addEventListener("abort", () => reject(abort.reason)));
      },
    });
    peer.receive({ jsonrpc: "2.0", id: 9, method: "work" });
    peer.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen?.aborted).toBe(true);
    expect(sent).toEqual([]);
  });
});
