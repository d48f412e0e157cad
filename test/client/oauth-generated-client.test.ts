// The generated client (src/client.ts of a generated package) logs in to the generated server run with
// --auth-issuer (a real process), against a real oidc-provider: tools/list shows what the token's scopes
// allow, a call needing more scopes steps up, and the upstream never sees the MCP token.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer, thingsPackage } from "../auth/support.ts";
import { startUpstream } from "../generate/support.ts";
import { authorize, type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";

let op: OidcTestProvider;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let server: ServerProcess;
let pkg: string;

beforeAll(async () => {
  op = await startOidcProvider();
  upstream = await startUpstream({
    "GET /things": () => ({ json: { things: ["a"] } }),
    "POST /things": () => ({ json: { ok: true } }),
  });
  pkg = await thingsPackage();
  server = await startServer(pkg, ["--auth-issuer", op.issuer, "--base-url", upstream.url], {
    THINGS_TOKEN: "upstream-secret",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  await op?.stop();
});

describe("generated client with OAuth", () => {
  it("logs in through the loopback helper, lists what its scopes allow, steps up for a write", async () => {
    const generated = (await import(join(pkg, "src/client.ts"))) as typeof import("../../runtime/index.ts");
    const loopback = await generated.startLoopbackRedirect({ timeoutMs: 20_000 });

    const scopesAsked: string[] = [];
    const client = await generated.connect({
      url: server.url,
      auth: {
        redirectUrl: loopback.redirectUrl,
        scopes: ["things:read"],
        onAuthorizationUrl: async (url) => {
          scopesAsked.push(url.searchParams.get("scope") ?? "");
          // Each login (the step-up too) listens again on the same loopback port.
          const waiting = loopback.callback();
          await (await fetch(await authorize(url, loopback.redirectUrl))).text();
          return waiting;
        },
      },
    });
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(listed).toEqual(["list_things", "server_time"]);
      expect((await client.callTool("list_things", {})).isError).toBeFalsy();
      expect(scopesAsked).toHaveLength(1);
      // add_thing needs things:write: 403 insufficient_scope, a second login for both scopes, then the call.
      expect((await client.callTool("add_thing", { name: "x" })).isError).toBeFalsy();
      expect(scopesAsked).toHaveLength(2);
      expect(scopesAsked[1].split(" ")).toEqual(expect.arrayContaining(["things:read", "things:write"]));
    } finally {
      await client.close();
      await loopback.close();
    }
    const sent = upstream.requests.map((request) => request.headers.authorization);
    expect(sent).toHaveLength(2);
    expect(sent.every((header) => header === "Bearer upstream-secret")).toBe(true);
  });
});
