/**
 * Properties of the upstream path under random hostile upstreams and hostile argument values, each case a
 * real call through a runtime server (Streamable HTTP on 127.0.0.1) to real upstreams that record what
 * reaches them:
 * - redirect chains (same origin, another origin, loops; every 3xx code), huge, slow-dripping and
 *   credential-echoing bodies: no credential ever reaches the second origin or a result, and the bytes
 *   read stay bounded by the cap;
 * - path and cookie values of any characters: a path value never changes the request path outside its
 *   segment, a cookie value never adds a cookie.
 * FUZZ_RUNS (npm run test:fuzz) raises the case count; each case here is a network round trip, so these
 * properties run a tenth of it.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  drip,
  type HostileUpstream,
  type McpUnderTest,
  seen,
  startHostile,
  startMcp,
  tool,
} from "./hostile-upstream.ts";

const RUNS = Math.max(20, Math.ceil(Number(process.env.FUZZ_RUNS ?? 300) / 10));
const SETTINGS = {
  numRuns: RUNS,
  seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261123,
};

const KEY = "fuzz-KEY+/=9c1e55aa";
const TOKEN = "fuzz-TOKEN-0b8d2e4f";
const BASIC = "bob:fuzz-PASS-7a7a7a";
const SESSION = "fuzz-SESSION-31337";
const FORMS = [KEY, encodeURIComponent(KEY), TOKEN, BASIC, Buffer.from(BASIC).toString("base64"), SESSION];
const CAP = 20_000;
const MB = 1024 * 1024;

type Hop = { status: 301 | 302 | 303 | 307 | 308; to: "same" | "other" | "loop"; absolute: boolean };
type Final = "json-echo" | "text-echo" | "error-echo" | "status-echo" | "huge-text" | "huge-json" | "slow-drip";
const hop: fc.Arbitrary<Hop> = fc.record({
  status: fc.constantFrom(301, 302, 303, 307, 308),
  to: fc.constantFrom("same", "same", "other", "loop"),
  absolute: fc.boolean(),
});
const final: fc.Arbitrary<Final> = fc.constantFrom(
  "json-echo",
  "text-echo",
  "error-echo",
  "status-echo",
  "huge-text",
  "huge-json",
  "slow-drip",
);

/** Everything the upstream was sent, as a hostile echo would return it. */
const echoOf = (r: { url: string; headers: Record<string, unknown> }) =>
  `${r.url} ${r.headers.authorization} ${r.headers["x-api-key"]} ${r.headers.cookie}`;

describe("hostile upstreams and hostile values (fast-check)", () => {
  let origin: HostileUpstream;
  let other: HostileUpstream;
  let server: McpUnderTest;
  let script: { hops: Hop[]; final: Final } = { hops: [], final: "json-echo" };

  beforeAll(async () => {
    other = await startHostile((r, res) => res.end(echoOf(r)));
    origin = await startHostile(async (r, res, host) => {
      const step = Number(/\/step\/(\d+)/.exec(r.path)?.[1] ?? 0);
      const next = script.hops[step];
      if (next) {
        const path = next.to === "loop" ? `/step/${step}` : `/step/${step + 1}`;
        const base = next.to === "other" ? other.url : next.absolute ? host.url : "";
        res.writeHead(next.status, { location: `${base}${path}?hop=${step}` }).end();
        return;
      }
      const echo = echoOf(r);
      switch (script.final) {
        case "json-echo":
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo, [TOKEN]: [echo] }));
          return;
        case "text-echo":
          res.writeHead(200, { "content-type": "text/plain" }).end(echo);
          return;
        case "error-echo":
          res.writeHead(403, { "content-type": "text/plain" }).end(echo);
          return;
        case "status-echo":
          res.writeHead(401, `no ${r.headers.authorization ?? r.headers["x-api-key"]}`).end();
          return;
        case "huge-text":
          res.writeHead(200, { "content-type": "text/plain" });
          return drip(res, host, 20 * MB, Buffer.from(`${echo} `.repeat(2000)));
        case "huge-json":
          res.writeHead(200, { "content-type": "application/json" });
          res.write("[");
          return drip(res, host, 20 * MB, Buffer.from(`${JSON.stringify(echo)},`.repeat(2000)));
        case "slow-drip":
          res.writeHead(200, { "content-type": "text/plain" });
          // Slow enough to arrive in dozens of reads, fast enough to reach the cap before the timeout.
          return drip(res, host, 1 * MB, Buffer.from(`${echo}\n`.repeat(4)), 20);
      }
    });
    const schemes = [
      { id: "key", type: "apiKey" as const, in: "header" as const, name: "x-api-key", env: "KEY" },
      { id: "q", type: "apiKey" as const, in: "query" as const, name: "k", env: "KEY" },
      { id: "c", type: "apiKey" as const, in: "cookie" as const, name: "session", env: "SESSION" },
      { id: "bearer", type: "bearer" as const, env: "TOKEN" },
      { id: "basic", type: "basic" as const, env: "BASIC" },
    ];
    server = await startMcp(
      { baseUrl: `${origin.url}/v1`, securitySchemes: schemes, timeoutMs: 3000 },
      [
        tool("get_bearer", { method: "GET", path: "/step/0", parameters: [], security: [["key", "q", "c", "bearer"]] }),
        tool("post_basic", {
          method: "POST",
          path: "/step/0",
          parameters: [],
          body: { contentType: "application/json", properties: ["a"] },
          security: [["basic"]],
        }),
        tool("segments", {
          method: "GET",
          path: "/items/{a}/x/{b}",
          parameters: [
            { name: "a", in: "path" },
            { name: "b", in: "path" },
          ],
          security: [["key", "q"]],
        }),
        tool("cookie", {
          method: "GET",
          path: "/cookie",
          parameters: [{ name: "pref", in: "cookie" }],
          security: [["c"]],
        }),
      ],
      { env: { KEY, TOKEN, BASIC, SESSION }, maxUpstreamBody: CAP },
    );
  }, 30_000);

  afterAll(async () => {
    await server?.close();
    await origin?.close();
    await other?.close();
  });

  it(`${RUNS} redirect chains and hostile bodies: no credential reaches another origin or a result; reads stay bounded`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hop, { maxLength: 7 }), final, fc.boolean(), async (hops, end, post) => {
        script = { hops, final: end };
        origin.requests.length = 0;
        other.requests.length = 0;
        origin.written = 0;
        const result = await server.client.callTool(post ? "post_basic" : "get_bearer", { a: 1 });
        const all = seen(result);
        // The other origin never hears from us: cross-origin redirects are not followed at all.
        expect(other.requests).toEqual([]);
        for (const form of FORMS) expect(all).not.toContain(form);
        // Memory: at most the cap plus a chunk is read; the rest stays in (or never leaves) the upstream.
        expect(origin.written).toBeLessThan(8 * MB);
        expect(all.length).toBeLessThan(CAP * 2 + 2000);
        const firstOut = hops.findIndex((h) => h.to !== "same");
        const crossAt = hops.findIndex((h) => h.to === "other");
        const loops = hops.findIndex((h) => h.to === "loop");
        if (crossAt >= 0 && crossAt === firstOut && crossAt <= 5) {
          expect(result.isError).toBe(true);
          expect(all).toContain(`redirected to another origin, ${other.url}/step/`);
        }
        if (loops >= 0 && loops === firstOut) expect(all).toMatch(/more than 5 redirects/);
      }),
      SETTINGS,
    );
  }, 600_000);

  // Weighted towards the values that attack a path or a cookie; random strings for the rest.
  const hostileValue = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(".", "..", "%2e%2e", "../..", "a/../b", "/", "?", "#", "%", ";") },
    fc.constantFrom("...", "%2E", "\r\n", "\u0000", "x; session=attacker", "", "é"),
    fc.string({ unit: "binary-ascii", maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 8 }),
    fc
      .array(fc.constantFrom(".", "/", "%", "?", "#", "a", "é", "\n", ";", "="), { maxLength: 6 })
      .map((a) => a.join("")),
  );

  it(`${RUNS} path values: every request stays at /v1/items/<a>/x/<b>, each value inside its own segment`, async () => {
    script = { hops: [], final: "text-echo" };
    await fc.assert(
      fc.asyncProperty(hostileValue, hostileValue, async (a, b) => {
        origin.requests.length = 0;
        const result = await server.client.callTool("segments", { a, b });
        expect(other.requests).toEqual([]);
        if (origin.requests.length === 0) {
          // Refused before sending: an error the model can read.
          expect(result.isError).toBe(true);
          return;
        }
        expect(origin.requests.length).toBe(1);
        const segments = origin.requests[0].path.split("/");
        expect(segments.slice(0, 3)).toEqual(["", "v1", "items"]);
        expect(segments.length).toBe(6);
        expect(segments[4]).toBe("x");
        expect(decodeURIComponent(segments[3])).toBe(a);
        expect(decodeURIComponent(segments[5])).toBe(b);
      }),
      SETTINGS,
    );
  }, 600_000);

  it(`${RUNS} cookie values: the Cookie header holds exactly pref and the real session`, async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (pref) => {
        origin.requests.length = 0;
        const result = await server.client.callTool("cookie", { pref });
        if (origin.requests.length === 0) {
          expect(result.isError).toBe(true); // a value that cannot be encoded (a lone surrogate)
          return;
        }
        const cookies = (origin.requests[0].headers.cookie ?? "").split("; ").map((c) => c.split("="));
        expect(cookies.map(([name]) => name)).toEqual(["pref", "session"]);
        expect(cookies[0]).toHaveLength(2);
        expect(decodeURIComponent(cookies[0][1])).toBe(pref);
        expect(cookies[1][1]).toBe(encodeURIComponent(SESSION));
      }),
      SETTINGS,
    );
  }, 600_000);
});
