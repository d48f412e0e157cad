// Repeated header lines, read off req.rawHeaders since issue 32 (headersDistinct was built per request): two Host
// lines are 400, two Content-Type lines 415, a repeated Mcp-* header 400 naming it (any case, the first repeated in
// order of first appearance), and one of each is served. Raw sockets: fetch cannot send a header twice.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../../../runtime/index.ts";
import { buildDemoServer } from "../../fixtures/demo-server.ts";

let handle: HttpServerHandle;
beforeAll(async () => {
  handle = await serveHttp(buildDemoServer());
});
afterAll(() => handle?.close());

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

/** One POST /mcp with these header lines (Content-Length added); the status and body. */
function send(lines: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(handle.port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.on("error", reject);
    const head = ["POST /mcp HTTP/1.1", ...lines, `Content-Length: ${Buffer.byteLength(BODY)}`, "Connection: close"];
    socket.end(`${head.join("\r\n")}\r\n\r\n${BODY}`);
  });
}

const HOST = "Host: 127.0.0.1";
const JSON_TYPE = "Content-Type: application/json";
const ACCEPT = "Accept: application/json, text/event-stream";

describe("repeated header lines", () => {
  test("one of each is served", async () => {
    const answer = await send([HOST, JSON_TYPE, ACCEPT, "Mcp-Method: initialize"]);
    expect(answer.status).toBe(200);
  });

  test("two Host lines are 400", async () => {
    const answer = await send([HOST, "host: localhost", JSON_TYPE, ACCEPT]);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("more than one Host header");
  });

  test("two Content-Type lines are 415, even when both say JSON", async () => {
    const answer = await send([HOST, JSON_TYPE, "content-type: application/json", ACCEPT]);
    expect(answer.status).toBe(415);
  });

  test("an Mcp-* header on two lines in different case is 400, named in lowercase", async () => {
    const answer = await send([HOST, JSON_TYPE, ACCEPT, "Mcp-Method: initialize", "mcp-method: initialize"]);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("mcp-method header sent more than once");
  });

  test("of two repeated Mcp-* headers, the one that appeared first is named", async () => {
    const lines = ["Mcp-Name: a", "Mcp-Method: initialize", "Mcp-Method: initialize", "Mcp-Name: a"];
    const answer = await send([HOST, JSON_TYPE, ACCEPT, ...lines]);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("mcp-name header sent more than once");
  });

  test("many distinct Mcp-* headers are no repeat", async () => {
    const many = Array.from({ length: 40 }, (_, index) => `Mcp-X-${index}: v`);
    const answer = await send([HOST, JSON_TYPE, ACCEPT, ...many]);
    expect(answer.status).toBe(200);
  });
});
