// Issue 17's attack table against a generated server run as `node dist/server.js --http --auth-issuer ...`
// with a real oidc-provider as the authorization server. Every row: the right status and WWW-Authenticate,
// and the server keeps serving (a valid token works right after).
import { randomUUID } from "node:crypto";
import { exportSPKI, generateKeyPair, importJWK, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream } from "../generate/support.ts";
import { type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { type Answer, openSession, post, type ServerProcess, startServer, thingsPackage } from "./support.ts";

let op: OidcTestProvider;
let server: ServerProcess;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let pkg: string;
const mcpTokens: string[] = [];

const now = () => Math.floor(Date.now() / 1000);
const list = (token?: string) =>
  post(server.url, { id: 7, method: "tools/list" }, token === undefined ? {} : { token });
const challenge = (answer: Answer) => answer.headers.get("www-authenticate") ?? "";
async function validToken(scope = "things:read") {
  const { access_token } = await op.mintToken({ resource: server.url, scope });
  mcpTokens.push(access_token);
  return access_token;
}
/** A token as the provider would sign it, with claims the row changes. */
async function crafted(claims: Record<string, unknown>) {
  const token = await op.signToken({ sub: "alice", aud: server.url, scope: "things:read", ...claims });
  mcpTokens.push(token);
  return token;
}
async function stillServing() {
  const token = await validToken();
  const session = await openSession(server.url, token);
  const answer = await post(server.url, { id: 9, method: "tools/list" }, { token, session });
  expect(answer.status).toBe(200);
}
function expectInvalidToken(answer: Answer, description?: RegExp) {
  expect(answer.status).toBe(401);
  expect(challenge(answer)).toMatch(/^Bearer /);
  expect(challenge(answer)).toContain('error="invalid_token"');
  expect(challenge(answer)).toContain(
    `resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp"`,
  );
  if (description) expect(challenge(answer)).toMatch(description);
}

beforeAll(async () => {
  op = await startOidcProvider();
  upstream = await startUpstream({
    "GET /things": () => ({ json: { things: ["a"] } }),
    "POST /things": () => ({ json: { ok: true } }),
    "GET /time": () => ({ json: { now: 1 } }),
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

describe("attack table", () => {
  it("no token: 401 with resource_metadata and the scopes, no error code", async () => {
    const answer = await list();
    expect(answer.status).toBe(401);
    expect(challenge(answer)).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"|scope="things:read things:write"/,
    );
    expect(challenge(answer)).toContain("resource_metadata=");
    expect(challenge(answer)).not.toContain("error=");
    await stillServing();
  });

  it("malformed: 401 invalid_token", async () => {
    expectInvalidToken(await list("not-a-jwt"), /not a JWT/);
    expectInvalidToken(await list("a.b.c"));
    expect(
      (await post(server.url, { id: 1, method: "tools/list" }, { headers: { authorization: "Bearer two words" } }))
        .status,
    ).toBe(401);
    await stillServing();
  });

  it("wrong signature: 401", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const kid = op.signingKey().kid as string;
    const forged = await new SignJWT({ sub: "alice", aud: server.url, scope: "things:read" })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(op.issuer)
      .setExpirationTime("5m")
      .sign(privateKey);
    expectInvalidToken(await list(forged), /signature/);
    await stillServing();
  });

  it("alg none: 401", async () => {
    const unsigned = new UnsecuredJWT({ sub: "alice", aud: server.url, scope: "things:read" })
      .setIssuer(op.issuer)
      .setExpirationTime("5m")
      .encode();
    expectInvalidToken(await list(unsigned));
    await stillServing();
  });

  it("HS256 signed with the provider's public key: 401 (algorithm confusion)", async () => {
    const publicJwk = op.publicJwks().keys[0];
    const pem = await exportSPKI((await importJWK(publicJwk, "RS256")) as CryptoKey);
    const confused = await new SignJWT({ sub: "alice", aud: server.url, scope: "things:read" })
      .setProtectedHeader({ alg: "HS256", kid: publicJwk.kid as string })
      .setIssuer(op.issuer)
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(pem));
    expectInvalidToken(await list(confused), /algorithm/);
    await stillServing();
  });

  it("expired (past the 30 s skew): 401", async () => {
    expectInvalidToken(await list(await crafted({ exp: now() - 120 })), /expired/);
    // Within the skew it is still accepted.
    expect((await list(await crafted({ exp: now() - 5 }))).status).not.toBe(401);
    await stillServing();
  });

  it("not yet valid: 401", async () => {
    expectInvalidToken(await list(await crafted({ nbf: now() + 120 })), /not valid yet/);
    await stillServing();
  });

  it("wrong issuer: 401, even when signed by a trusted key", async () => {
    expectInvalidToken(await list(await crafted({ iss: "https://evil.example" })), /issuer/);
    await stillServing();
  });

  it("wrong audience: 401", async () => {
    expectInvalidToken(await list(await crafted({ aud: "https://other.example/mcp" })), /audience/);
    await stillServing();
  });

  it("a real token for another resource (RFC 8707): 401", async () => {
    const { access_token } = await op.mintToken({ resource: "http://127.0.0.1:1/other-mcp", scope: "things:read" });
    mcpTokens.push(access_token);
    expectInvalidToken(await list(access_token), /audience/);
    await stillServing();
  });

  it("missing scope: 403 insufficient_scope naming every scope the tool needs", async () => {
    const token = await validToken("things:read");
    const session = await openSession(server.url, token);
    const call = { id: 3, method: "tools/call", params: { name: "add_thing", arguments: { name: "x" } } };
    const answer = await post(server.url, call, { token, session });
    expect(answer.status).toBe(403);
    expect(challenge(answer)).toContain('error="insufficient_scope"');
    expect(challenge(answer)).toContain('scope="things:read things:write"');
    expect(challenge(answer)).toContain("resource_metadata=");
    // With the scope (step-up), the same call goes through.
    const upgraded = await validToken("things:read things:write");
    const ok = await post(server.url, call, { token: upgraded, session: await openSession(server.url, upgraded) });
    expect(ok.status).toBe(200);
    expect(ok.body?.result).toMatchObject({ structuredContent: { ok: true } });
  });

  it("token in the query string: 400 invalid_request, even when the token is valid", async () => {
    const token = await validToken();
    const response = await fetch(`${server.url}?access_token=${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_request"');
    await stillServing();
  });

  it("token replay on another principal's session: 404; the same principal with a new token is fine", async () => {
    const aliceToken = await crafted({ sub: "alice" });
    const session = await openSession(server.url, aliceToken);
    const bob = await crafted({ sub: "bob" });
    const replay = await post(server.url, { id: 4, method: "tools/list" }, { token: bob, session });
    expect(replay.status).toBe(404);
    const getStream = await fetch(server.url, {
      headers: {
        authorization: `Bearer ${bob}`,
        accept: "text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
    });
    expect(getStream.status).toBe(404);
    const del = await fetch(server.url, {
      method: "DELETE",
      headers: { authorization: `Bearer ${bob}`, "mcp-session-id": session },
    });
    expect(del.status).toBe(404);
    const aliceAgain = await crafted({ sub: "alice" });
    expect((await post(server.url, { id: 5, method: "tools/list" }, { token: aliceAgain, session })).status).toBe(200);
  });

  it("a very large token: 400 invalid_request, not processed", async () => {
    const answer = await list("A".repeat(10_000));
    expect(answer.status).toBe(400);
    expect(challenge(answer)).toContain('error="invalid_request"');
    await stillServing();
  });

  it("many distinct invalid tokens: all 401, the JWKS endpoint is not hammered, the server keeps serving", async () => {
    await stillServing(); // keys fetched
    const before = op.jwksRequests();
    const answers = await Promise.all(
      Array.from(
        { length: 300 },
        async () => (await list(await op.signToken({ sub: "x", aud: server.url }, { kid: randomUUID() }))).status,
      ),
    );
    expect(new Set(answers)).toEqual(new Set([401]));
    // Unknown kids refetch the keys at most once per 5 s cooldown.
    expect(op.jwksRequests() - before).toBeLessThanOrEqual(3);
    await stillServing();
  });

  it("the upstream never saw an MCP access token, only its own credential", async () => {
    expect(upstream.requests.length).toBeGreaterThan(0);
    for (const request of upstream.requests) {
      expect(request.headers.authorization).toBe("Bearer upstream-secret");
      const everything = JSON.stringify(request.headers) + request.body + request.query.toString();
      for (const token of mcpTokens) expect(everything).not.toContain(token);
    }
  });
});
