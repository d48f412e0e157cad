// ctx.auth reaches handlers (issue 17), and the token verifier's introspection cache stays bounded under a
// flood of distinct invalid tokens. Real HTTP on 127.0.0.1 and a real oidc-provider; the server in process.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthFeature } from "../../runtime/features/oauth/feature.ts";
import { MAX_CACHED_ANSWERS, TokenVerifier } from "../../runtime/features/oauth/token-verifier.ts";
import type { AuthPrincipal } from "../../runtime/server/auth-principal.ts";
import { createServer } from "../../runtime/server/server.ts";
import { type HttpServerHandle, serveHttp } from "../../runtime/transport/http/server.ts";
import { clients, type OidcTestProvider, secretOf, startOidcProvider } from "../support/oidc-provider.ts";
import { openSession, post } from "./support.ts";

let op: OidcTestProvider;
let handle: HttpServerHandle;
const seen: (AuthPrincipal | undefined)[] = [];

beforeAll(async () => {
  op = await startOidcProvider();
  const server = createServer({ name: "who", version: "1.0.0" });
  server.tool({
    name: "whoami",
    inputSchema: { type: "object" },
    handler: (_args, ctx) => {
      seen.push(ctx.auth);
      return { content: [{ type: "text", text: ctx.auth?.subject ?? "nobody" }] };
    },
  });
  handle = await serveHttp(server, {
    auth: { issuers: [op.issuer], cacheSeconds: 30, listAllTools: false },
    features: oauthFeature.http,
    log: () => {},
  });
}, 60_000);
afterAll(async () => {
  await handle?.close();
  await op?.stop();
});

describe("ctx.auth", () => {
  it("hands the validated principal to the handler: subject, scopes, claims, issuer, client", async () => {
    const token = await op.signToken({ sub: "alice", aud: handle.url, scope: "a b", client_id: "app-1" });
    const session = await openSession(handle.url, token);
    const answer = await post(
      handle.url,
      { id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } },
      { token, session },
    );
    expect(answer.body?.result).toMatchObject({ content: [{ text: "alice" }] });
    const principal = seen.at(-1) as AuthPrincipal;
    expect(principal).toMatchObject({
      subject: "alice",
      scopes: ["a", "b"],
      issuer: op.issuer,
      clientId: "app-1",
      token,
    });
    expect(principal.claims.aud).toBe(handle.url);
    expect(typeof principal.expiresAt).toBe("number");
  });

  it("refuses a static bearer token together with OAuth", async () => {
    const server = createServer({ name: "x", version: "1.0.0" });
    await expect(
      serveHttp(server, { bearerToken: "t", auth: { issuers: [op.issuer], cacheSeconds: 0, listAllTools: false } }),
    ).rejects.toThrow(/cannot both/);
  });
});

describe("token verifier", () => {
  it("keeps at most MAX_CACHED_ANSWERS introspection answers however many distinct tokens arrive", async () => {
    const verifier = new TokenVerifier(
      {
        issuers: [op.issuer],
        audience: "http://127.0.0.1:1/mcp",
        introspection: {
          url: `${op.issuer}/token/introspection`,
          clientId: clients.resourceServer,
          clientSecret: secretOf(clients.resourceServer),
        },
        cacheSeconds: 30,
        listAllTools: false,
      },
      () => {},
    );
    const total = MAX_CACHED_ANSWERS + 100;
    for (let i = 0; i < total; i += 50) {
      const batch = Array.from({ length: Math.min(50, total - i) }, () => verifier.verify(`opaque-${randomUUID()}`));
      for (const verdict of await Promise.all(batch)) expect(verdict).toMatchObject({ ok: false, status: 401 });
    }
    expect(verifier.cachedAnswers).toBe(MAX_CACHED_ANSWERS);
  }, 60_000);
});
