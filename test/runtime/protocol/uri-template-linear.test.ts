/**
 * Matching a URI against a template takes time linear in the URI (O(length × parts)), so a client
 * cannot stall resources/read with a crafted URI. The backtracking regex this replaced took 0.6 s
 * for 10 kB against file:///{+path}{?rev} and grew with the square of the length (n⁴ for
 * {a}-{b}-{c}-{d}, which the validator now refuses as ambiguous).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  connect,
  createServer,
  type HttpServerHandle,
  type McpClient,
  type McpServer,
  serveHttp,
} from "../../../runtime/index.ts";
import { compileUriTemplate, MAX_TEMPLATE_URI_LENGTH } from "../../../runtime/protocol/uri-template-match.ts";

const LONG = 30_000;

/** [template, a long URI built to make a backtracking matcher retry every split, want]. */
const HOSTILE: Array<[string, string, Record<string, string> | undefined]> = [
  ["file:///{+path}{?rev}", `file:///${"?".repeat(LONG)}#\n`, undefined],
  ["file:///{+path}{?rev}", `file:///a?rev=1${"&rev=2".repeat(LONG / 6)}`, { path: "a", rev: "1" }],
  ["t://{+a}{#f}", `t://${"#".repeat(LONG)}\n`, undefined],
  ["t://{+p}/x", `t://${"/x".repeat(LONG / 2)}y`, undefined],
  ["t://{a}/{b}.json{?q,r}", `t://${"a/".repeat(LONG / 2)}.json`, undefined],
  ["t://a{/x,y,z}{;p,q}{?r}{#s}", `t://a${"/;p=".repeat(LONG / 4)}`, undefined],
  ["t://a{;p,pq}:x{.e}", `t://a${";pq=;p".repeat(LONG / 6)}`, undefined],
  ["t://{a}.{+b}", "t://x", undefined], // refused: stands for every template the validator refuses
];

describe("uri template matching time", () => {
  test.each(HOSTILE.filter(([template]) => template !== "t://{a}.{+b}"))(
    "%s answers a 30 kB hostile URI within a second",
    (template, uri, want) => {
      const matcher = compileUriTemplate(template);
      const started = performance.now();
      const got = matcher.match(uri);
      const elapsed = performance.now() - started;
      expect(got).toEqual(want);
      expect(elapsed).toBeLessThan(1_000);
    },
  );

  test("a URI longer than the limit matches no template, however simple", () => {
    const matcher = compileUriTemplate("file:///{+path}");
    expect(matcher.match(`file:///${"a".repeat(MAX_TEMPLATE_URI_LENGTH - 8)}`)).toEqual({
      path: "a".repeat(MAX_TEMPLATE_URI_LENGTH - 8),
    });
    expect(matcher.match(`file:///${"a".repeat(MAX_TEMPLATE_URI_LENGTH - 7)}`)).toBeUndefined();
  });
});

describe("resources/read over HTTP with a hostile URI", () => {
  let server: McpServer;
  let http: HttpServerHandle;
  let client: McpClient;

  beforeAll(async () => {
    server = createServer({ name: "hostile", version: "1.0.0" });
    for (const uriTemplate of ["file:///{+path}{?rev}", "t://{+a}{#f}", "t://a{/x,y,z}{;p,q}{?r}{#s}"]) {
      server.resourceTemplate({
        uriTemplate,
        name: uriTemplate,
        read: (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
      });
    }
    http = await serveHttp(server);
    // The 2025 era carries the URI in the body only (2026 repeats it in an Mcp-Name header,
    // which Node caps at 16 kB), so this is where a client can send the longest URIs.
    client = await connect({ url: http.url }, { protocolVersion: "2025-11-25" });
  });

  afterAll(async () => {
    await client.close();
    await http.close();
  });

  test("a long URI built to make matching backtrack is answered promptly", async () => {
    for (const uri of [`file:///${"?".repeat(60_000)}#\n`, `t://a${"/;p=".repeat(15_000)}\n`]) {
      const started = performance.now();
      await expect(client.readResource(uri)).rejects.toMatchObject({ code: -32002 });
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  test("a URI over the limit is refused with a reason, and the server still answers", async () => {
    const uri = `file:///${"a".repeat(1_000_000)}`;
    const started = performance.now();
    await expect(client.readResource(uri)).rejects.toThrow(`matches no resource template`);
    expect(performance.now() - started).toBeLessThan(2_000);
    const read = await client.readResource("file:///notes/a.txt?rev=3");
    expect(read.contents[0]).toMatchObject({ text: JSON.stringify({ path: "notes/a.txt", rev: "3" }) });
  });
});
