/**
 * Property-based Host and Content-Type headers on a raw socket (issue 11, items 14 and 15): whatever the
 * value, the answer is a clean status, never a 500, and the request is served exactly when an
 * independent oracle says the value is a loopback host / the JSON media type. FUZZ_RUNS raises the count.
 */
import { connect as connectSocket } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serveHttp } from "../../runtime/index.ts";
import { buildDemoServer } from "../runtime/fixtures/demo-server.ts";
import { callLine } from "./wire.ts";

const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 150), 2_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261123;

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serveHttp(buildDemoServer());
});
afterAll(() => http?.close());

const body = callLine(1).trim();

function statusOf(host: string, contentType: string): Promise<number> {
  const head = [
    `host: ${host}`,
    `content-type: ${contentType}`,
    "accept: application/json",
    "mcp-protocol-version: 2026-07-28",
    "mcp-method: tools/call",
    "mcp-name: echo",
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
  ].join("\r\n");
  return new Promise((resolve) => {
    const socket = connectSocket(http.port, "127.0.0.1", () =>
      socket.end(`POST /mcp HTTP/1.1\r\n${head}\r\n\r\n${body}`),
    );
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    const done = () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0));
    socket.on("error", done);
    socket.on("close", done);
  });
}

const piecesOf = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));

const HOST_PIECES = [
  "localhost",
  "LocalHost",
  "127.0.0.1",
  "[::1]",
  "[",
  "]",
  "::1",
  ":",
  "80",
  "65535",
  "evil.example",
  ".",
  "@",
  " ",
  "%41",
  "x",
];
const TYPE_PIECES = [
  "application",
  "Application",
  "/",
  "json",
  "JSON",
  "jsonx",
  ";",
  " ",
  "charset=utf-8",
  'q="a,b"',
  "x=application/json",
  "text/plain",
  ",",
  "*",
];

// Oracles written independently of the runtime: the forms a loopback Host may take, and the JSON media type.
const LOOPBACK = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::[0-9]{0,5})?$/i;
const JSON_TYPE = /^application\/json[ \t]*(?:;[ \t]*(?:[a-z0-9-]+=(?:[a-z0-9-]+|"[^"]*")[ \t]*)?)*$/i;

describe("fuzzed Host and Content-Type headers", () => {
  it("are answered 200 exactly when the host is loopback and the type is JSON, otherwise 400/403/415", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Valid values often enough that the "served" side of the oracle is exercised too.
        fc.oneof(piecesOf(HOST_PIECES), fc.constantFrom("localhost:3000", "[::1]:80", "127.0.0.1", "LOCALHOST:")),
        fc.oneof(piecesOf(TYPE_PIECES), fc.constantFrom("application/json", "Application/JSON; charset=utf-8")),
        async (host, contentType) => {
          const status = await statusOf(host, contentType);
          expect([200, 400, 403, 415]).toContain(status);
          const served = LOOPBACK.test(host.trim()) && JSON_TYPE.test(contentType.trim());
          expect(status === 200, `host ${JSON.stringify(host)}, type ${JSON.stringify(contentType)}: ${status}`).toBe(
            served,
          );
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);
});
