// The generated server as an OAuth protected resource beyond the attack table (issue 17): the RFC 9728
// document, key rotation, revocation through introspection, JWKS outage, tools/list by scope and
// --list-all-tools, dynamic mode's search by scope, and the start-up errors. Real processes throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream } from "../generate/support.ts";
import { clients, type OidcTestProvider, secretOf, startOidcProvider } from "../support/oidc-provider.ts";
import {
  listToolNames,
  openSession,
  post,
  resultOf,
  type ServerProcess,
  startFailure,
  startServer,
  thingsPackage,
} from "./support.ts";

let op: OidcTestProvider;
let pkg: string;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
const running: ServerProcess[] = [];
async function serve(args: string[], env: NodeJS.ProcessEnv = {}) {
  const server = await startServer(pkg, ["--auth-issuer", op.issuer, "--base-url", upstream.url, ...args], env);
  running.push(server);
  return server;
}
const token = async (server: ServerProcess, scope: string) =>
  (await op.mintToken({ resource: server.url, scope })).access_token;

beforeAll(async () => {
  op = await startOidcProvider();
  upstream = await startUpstream({
    "GET /things": () => ({ json: { things: [] } }),
    "GET /time": () => ({ json: { now: 1 } }),
  });
  pkg = await thingsPackage();
}, 120_000);
afterAll(async () => {
  for (const server of running) await server.stop();
  await upstream?.close();
  await op?.stop();
});

describe("protected resource", () => {
  it("serves RFC 9728 metadata at the root and path-suffixed well-known URLs, without a token", async () => {
    const server = await serve([]);
    const origin = new URL(server.url).origin;
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: server.url,
        authorization_servers: [op.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["things:read", "things:write"],
        resource_name: "things",
      });
    }
    // --auth-audience names the resource (behind a proxy): the document and the audience check follow it.
    const proxied = await serve(["--auth-audience", "https://mcp.example.com/things/mcp"]);
    const doc = await (
      await fetch(`${new URL(proxied.url).origin}/.well-known/oauth-protected-resource/things/mcp`)
    ).json();
    expect(doc.resource).toBe("https://mcp.example.com/things/mcp");
    const forProxy = (await op.mintToken({ resource: "https://mcp.example.com/things/mcp", scope: "things:read" }))
      .access_token;
    expect((await post(proxied.url, { id: 1, method: "tools/list" }, { token: forProxy })).status).not.toBe(401);
    expect(
      (await post(proxied.url, { id: 1, method: "tools/list" }, { token: await token(proxied, "things:read") })).status,
    ).toBe(401);
  });

  it("several issuers (comma list), each token checked against its own issuer's keys; --auth-jwks pins the keys", async () => {
    const second = await startOidcProvider();
    try {
      const server = await serve(["--auth-issuer", `${second.issuer}`], { MCP_AUTH_ISSUER: "ignored: the flag wins" });
      for (const provider of [op, second]) {
        const { access_token } = await provider.mintToken({ resource: server.url, scope: "things:read" });
        const session = await openSession(server.url, access_token);
        expect(await listToolNames(server.url, access_token, session)).toEqual(["list_things", "server_time"]);
      }
      // Keys pinned to the first issuer's JWKS: the second issuer's tokens no longer verify.
      const pinned = await startServer(pkg, [
        "--auth-issuer",
        `${op.issuer},${second.issuer}`,
        "--auth-jwks",
        `${op.issuer}/jwks`,
      ]);
      running.push(pinned);
      const fromFirst = await op.mintToken({ resource: pinned.url, scope: "things:read" });
      expect(
        (await post(pinned.url, { id: 1, method: "tools/list" }, { token: fromFirst.access_token })).status,
      ).not.toBe(401);
      const fromSecond = await second.mintToken({ resource: pinned.url, scope: "things:read" });
      expect((await post(pinned.url, { id: 1, method: "tools/list" }, { token: fromSecond.access_token })).status).toBe(
        401,
      );
    } finally {
      await second.stop();
    }
  });

  it("key rotation: a token signed by the new key is accepted; the old key's tokens still are while published", async () => {
    const server = await serve([]);
    const old = await token(server, "things:read");
    expect((await post(server.url, { id: 1, method: "tools/list" }, { token: old })).status).not.toBe(401);
    await op.rotateKeys();
    await new Promise((resolve) => setTimeout(resolve, 5_200)); // the refetch cooldown after the first fetch
    const fresh = await token(server, "things:read");
    const session = await openSession(server.url, fresh);
    expect(await listToolNames(server.url, fresh, session)).toEqual(["list_things", "server_time"]);
    expect((await post(server.url, { id: 1, method: "tools/list" }, { token: old, session })).status).toBe(200);
  }, 30_000);

  it("opaque tokens through introspection; a revoked one is refused", async () => {
    const server = await serve(["--auth-introspection", `${op.issuer}/token/introspection`], {
      MCP_AUTH_CLIENT_ID: clients.resourceServer,
      MCP_AUTH_CLIENT_SECRET: secretOf(clients.resourceServer),
      MCP_AUTH_CACHE_SECONDS: "0",
    });
    const { access_token } = await op.mintToken({
      resource: server.url,
      scope: "things:read",
      clientId: clients.opaque,
    });
    expect(access_token).not.toContain(".");
    const session = await openSession(server.url, access_token);
    expect(await listToolNames(server.url, access_token, session)).toEqual(["list_things", "server_time"]);
    await op.revoke(access_token);
    const after = await post(server.url, { id: 2, method: "tools/list" }, { token: access_token, session });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("JWKS endpoint down: 503 with Retry-After (fail closed), one clear log line, serving again once it is back", async () => {
    const server = await serve([]);
    const valid = await token(server, "things:read");
    op.setJwksDown(true);
    try {
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push(await post(server.url, { id: 1, method: "tools/list" }, { token: valid }));
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("retry-after")).toBe("5");
      }
      const lines = server
        .stderr()
        .split("\n")
        .filter((line) => line.includes("cannot fetch the signing keys"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(op.issuer);
      expect((await fetch(new URL("/healthz", server.url))).status).toBe(200);
    } finally {
      op.setJwksDown(false);
    }
    expect((await post(server.url, { id: 1, method: "tools/list" }, { token: valid })).status).not.toBe(503);
  });

  it("tools/list leaves out what the token cannot call, unless --list-all-tools (calls still checked)", async () => {
    const server = await serve([]);
    const reader = await token(server, "things:read");
    expect(await listToolNames(server.url, reader, await openSession(server.url, reader))).toEqual([
      "list_things",
      "server_time",
    ]);
    const none = await token(server, "");
    expect(await listToolNames(server.url, none, await openSession(server.url, none))).toEqual(["server_time"]);
    const writer = await token(server, "things:read things:write");
    expect(await listToolNames(server.url, writer, await openSession(server.url, writer))).toEqual([
      "add_thing",
      "list_things",
      "server_time",
    ]);

    const listAll = await serve(["--list-all-tools"]);
    const reader2 = await token(listAll, "things:read");
    const session = await openSession(listAll.url, reader2);
    expect(await listToolNames(listAll.url, reader2, session)).toEqual(["add_thing", "list_things", "server_time"]);
    const call = { id: 3, method: "tools/call", params: { name: "add_thing", arguments: { name: "x" } } };
    expect((await post(listAll.url, call, { token: reader2, session })).status).toBe(403);
  });

  it("dynamic mode: search and describe leave out unreachable tools; call_tool answers 403", async () => {
    const server = await serve(["--mode", "dynamic"]);
    const reader = await token(server, "things:read");
    const session = await openSession(server.url, reader);
    const searchAs = async (as: string) => {
      const params = { name: "search_tools", arguments: { query: "add list things", limit: 10 } };
      const answer = await post(
        server.url,
        { id: 1, method: "tools/call", params },
        { token: as, session: await openSession(server.url, as) },
      );
      const result = resultOf<{ structuredContent: { tools: { name: string }[] } }>(answer);
      return result.structuredContent.tools.map((t) => t.name);
    };
    const found = await searchAs(reader);
    expect(found).toContain("list_things");
    expect(found).not.toContain("add_thing");
    // The same search with the write scope finds it: it was left out for the scope, not the words.
    expect(await searchAs(await token(server, "things:read things:write"))).toContain("add_thing");
    const described = await post(
      server.url,
      { id: 2, method: "tools/call", params: { name: "describe_tools", arguments: { names: ["add_thing"] } } },
      { token: reader, session },
    );
    expect(resultOf<{ isError?: boolean }>(described).isError).toBe(true);
    const call = await post(
      server.url,
      {
        id: 3,
        method: "tools/call",
        params: { name: "call_tool", arguments: { name: "add_thing", arguments: { name: "x" } } },
      },
      { token: reader, session },
    );
    expect(call.status).toBe(403);
    expect(call.headers.get("www-authenticate")).toContain('scope="things:read things:write"');
  });

  it("code mode: search_docs leaves out unreachable tools; execute's api calls are checked one by one", async () => {
    const server = await serve(["--mode", "code", "--allow-destructive"]);
    const reader = await token(server, "things:read");
    const session = await openSession(server.url, reader);
    const call = (name: string, args: Record<string, unknown>) =>
      post(server.url, { id: 1, method: "tools/call", params: { name, arguments: args } }, { token: reader, session });
    const docs = await call("search_docs", { query: "add list things", limit: 10 });
    const names = resultOf<{ structuredContent: { tools: string[] } }>(docs).structuredContent.tools;
    expect(names).toContain("list_things");
    expect(names).not.toContain("add_thing");
    const run = await call("execute", { code: 'return await api.add_thing({ name: "x" });' });
    expect(JSON.stringify(run.body)).toContain("Insufficient scope");
    expect(upstream.requests.some((request) => request.method === "POST")).toBe(false);
  }, 60_000);

  it("'did you mean' names only tools the token may see: describe_tools, call_tool, code mode's api, tools/call", async () => {
    const dynamic = await serve(["--mode", "dynamic"]);
    const code = await serve(["--mode", "code"]);
    const answerAs = async (server: ServerProcess, scope: string, name: string, args: Record<string, unknown>) => {
      const as = await token(server, scope);
      const params = { name, arguments: args };
      return post(
        server.url,
        { id: 1, method: "tools/call", params },
        { token: as, session: await openSession(server.url, as) },
      );
    };
    const callAs = async (server: ServerProcess, scope: string, name: string, args: Record<string, unknown>) =>
      JSON.stringify(resultOf(await answerAs(server, scope, name, args)));
    const reader = "things:read";
    const writer = "things:read things:write";
    const typo = { name: "add_thin", arguments: { name: "x" } };
    expect(await callAs(dynamic, reader, "call_tool", typo)).not.toContain("add_thing");
    expect(await callAs(dynamic, writer, "call_tool", typo)).toContain("did you mean 'add_thing'");
    // The exact name of a hidden tool is not offered back to the caller as a suggestion either.
    expect(await callAs(dynamic, reader, "describe_tools", { names: ["add_thing"] })).not.toContain("did you mean");
    const tryTypo = "try { await api.add_thin({ name: 'x' }); } catch (e) { return [e.message, Object.keys(api)]; }";
    const readerSees = await callAs(code, reader, "execute", { code: tryTypo });
    expect(readerSees).toContain("Unknown API function api.add_thin");
    expect(readerSees).not.toContain("add_thing");
    expect(await callAs(code, writer, "execute", { code: tryTypo })).toContain("did you mean 'add_thing'");
    // A direct tools/call of the typo: the same -32602 for both, the close name only for the token that may see it.
    const direct = async (scope: string) => (await answerAs(dynamic, scope, "add_thin", {})).body?.error;
    expect(await direct(reader)).toEqual({ code: -32602, message: "Unknown tool: add_thin" });
    expect(await direct(writer)).toEqual({
      code: -32602,
      message: "Unknown tool: add_thin (did you mean 'add_thing'?)",
    });
  }, 60_000);

  it("refuses to start with both MCP_HTTP_TOKEN and --auth-issuer, and on bad values (exit 2)", async () => {
    const both = await startFailure(pkg, ["--auth-issuer", op.issuer], { MCP_HTTP_TOKEN: "static" });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("MCP_HTTP_TOKEN and --auth-issuer");
    const envBoth = await startFailure(pkg, [], { MCP_HTTP_TOKEN: "static", MCP_AUTH_ISSUER: op.issuer });
    expect(envBoth.code).toBe(2);
    const bad = await startFailure(pkg, ["--auth-issuer", "not a url"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--auth-issuer must be an absolute http(s) URL");
    const plain = await startFailure(pkg, ["--auth-issuer", "http://auth.example.com"]);
    expect(plain.stderr).toContain("must use https");
    const stray = await startFailure(pkg, ["--auth-audience", "https://mcp.example.com/mcp"]);
    expect(stray.stderr).toContain("--auth-audience needs --auth-issuer");
    const introspection = await startFailure(pkg, [
      "--auth-issuer",
      op.issuer,
      "--auth-introspection",
      `${op.issuer}/token/introspection`,
    ]);
    expect(introspection.stderr).toContain("MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET");
  });
});
