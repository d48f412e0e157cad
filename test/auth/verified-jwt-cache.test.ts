// The token verifier keeps a verified JWT's verdict (issue 32: checking the signature on every request was most
// of an authenticated call's cost), but never past the token's expiry and never longer than a minute.
// A real key server on 127.0.0.1 and real ES256 tokens; the clock is moved with fake Date only.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLOCK_SKEW_SECONDS, TokenVerifier } from "../../runtime/features/oauth/token-verifier.ts";

const AUDIENCE = "https://mcp.example/mcp";
let keyServer: Server;
let issuer: string;
let sign: (expiresInSeconds: number) => Promise<string>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  keyServer = createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
  sign = (seconds) =>
    new SignJWT({ scope: "a" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setSubject("alice")
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(privateKey);
});
afterEach(() => vi.useRealTimers());
afterAll(() => keyServer?.close());

const verifier = () =>
  new TokenVerifier(
    { issuers: [issuer], audience: AUDIENCE, jwksUrl: `${issuer}/jwks`, cacheSeconds: 30, listAllTools: false },
    () => {},
  );

describe("verified JWTs", () => {
  it("are answered from the cache within a minute: the same principal, no second signature check", async () => {
    const tokens = verifier();
    const token = await sign(3600);
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ ok: true, principal: { subject: "alice", issuer } });
    expect(await tokens.verify(token)).toBe(first);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    const later = await tokens.verify(token);
    expect(later).toMatchObject({ ok: true });
    expect(later).not.toBe(first); // verified again after the minute
  });

  it("hand out a frozen principal: one request's handler cannot add a scope the next request would see", async () => {
    const tokens = verifier();
    const verdict = await tokens.verify(await sign(3600));
    if (!verdict.ok) throw new Error("the token should verify");
    expect(() => (verdict.principal.scopes as string[]).push("admin")).toThrow(TypeError);
    expect(() => Object.assign(verdict.principal.claims, { scope: "admin" })).toThrow(TypeError);
    expect(verdict.principal.scopes).toEqual(["a"]);
  });

  it("are not kept past their expiry (with the allowed clock skew): an expired token is refused", async () => {
    const tokens = verifier();
    const token = await sign(5);
    expect(await tokens.verify(token)).toMatchObject({ ok: true });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (5 + CLOCK_SKEW_SECONDS + 2) * 1000 });
    expect(await tokens.verify(token)).toMatchObject({ ok: false, status: 401 });
  });

  it("a token that fails is not kept: a bad audience is refused every time", async () => {
    const tokens = new TokenVerifier(
      {
        issuers: [issuer],
        audience: "https://other.example/mcp",
        jwksUrl: `${issuer}/jwks`,
        cacheSeconds: 30,
        listAllTools: false,
      },
      () => {},
    );
    const token = await sign(3600);
    expect(await tokens.verify(token)).toMatchObject({ ok: false, status: 401 });
    expect(await tokens.verify(token)).toMatchObject({ ok: false, status: 401 });
  });
});
