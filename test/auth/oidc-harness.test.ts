// The shared oidc-provider harness works as the auth tests assume (issue 17).
import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorize, clients, type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";

const resource = "http://127.0.0.1:9/mcp";
let op: OidcTestProvider;
beforeAll(async () => {
  op = await startOidcProvider();
});
afterAll(async () => op?.stop());

describe("oidc-provider harness", () => {
  it("mints a JWT access token bound to the resource, with the scopes asked for", async () => {
    const { access_token } = await op.mintToken({ resource, scope: "pets:read pets:write" });
    const jwks = createRemoteJWKSet(new URL(`${op.issuer}/jwks`));
    const { payload } = await jwtVerify(access_token, jwks, { issuer: op.issuer, audience: resource });
    expect(payload.scope).toBe("pets:read pets:write");
    expect(payload.client_id).toBe(clients.machine);
  });

  it("issues opaque tokens that introspect, then revokes them", async () => {
    const { access_token } = await op.mintToken({ resource, scope: "a", clientId: clients.opaque });
    expect(access_token.split(".")).toHaveLength(1);
    expect(await op.introspect(access_token)).toMatchObject({ active: true, aud: resource, scope: "a" });
    await op.revoke(access_token);
    expect(await op.introspect(access_token)).toMatchObject({ active: false });
  });

  it("rotates keys: the new key signs, the old stays published until retired", async () => {
    const before = decodeProtectedHeader((await op.mintToken({ resource })).access_token).kid;
    await op.rotateKeys();
    const after = decodeProtectedHeader((await op.mintToken({ resource })).access_token).kid;
    expect(after).not.toBe(before);
    const kids = async () =>
      ((await (await fetch(`${op.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    expect(await kids()).toEqual([after, before]);
    op.retireOldKeys();
    expect(await kids()).toEqual([after]);
  });

  it("registers a client dynamically and runs authorization code + PKCE + refresh without a browser", async () => {
    const redirectUri = "http://127.0.0.1:5555/callback";
    const reg = await fetch(`${op.issuer}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        application_type: "native",
      }),
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const url = new URL(`${op.issuer}/auth`);
    for (const [k, v] of Object.entries({
      client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid tools:call",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource,
      state: "s1",
    }))
      url.searchParams.set(k, v);
    const back = await authorize(url, redirectUri);
    expect(back.searchParams.get("state")).toBe("s1");
    const code = back.searchParams.get("code") as string;
    expect(code).toBeTruthy();
    const token = await fetch(`${op.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id,
        code_verifier: verifier,
        resource,
      }).toString(),
    });
    const body = (await token.json()) as { access_token: string; refresh_token: string };
    expect(token.status, JSON.stringify(body)).toBe(200);
    const { payload } = await jwtVerify(body.access_token, createRemoteJWKSet(new URL(`${op.issuer}/jwks`)), {
      audience: resource,
    });
    expect(payload.sub).toBe(op.accountId);
    expect(payload.scope).toBe("tools:call");
    const refreshed = await fetch(`${op.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: body.refresh_token,
        client_id,
        resource,
      }).toString(),
    });
    expect(refreshed.status).toBe(200);
  });

  it("answers 503 on the JWKS endpoint while down, and counts requests", async () => {
    const n = op.jwksRequests();
    op.setJwksDown(true);
    expect((await fetch(`${op.issuer}/jwks`)).status).toBe(503);
    op.setJwksDown(false);
    expect((await fetch(`${op.issuer}/jwks`)).status).toBe(200);
    expect(op.jwksRequests()).toBe(n + 2);
  });
});
