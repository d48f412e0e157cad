// A hand-written server protected by OAuth but given no toolGate still holds its resources to their own
// `scopes` (the oauth feature installs a fallback gate when serveHttp starts with auth on).
import { afterAll, expect, it } from "vitest";
import { oauthFeature } from "../../runtime/features/oauth/feature.ts";
import { createServer } from "../../runtime/server/server.ts";
import { type HttpServerHandle, serveHttp } from "../../runtime/transport/http/server.ts";

let handle: HttpServerHandle | undefined;
afterAll(() => handle?.close());

it("a server without a gate of its own gets one that refuses a resource's missing scopes", async () => {
  const server = createServer({ name: "plain", version: "1.0.0" });
  expect(server.options.toolGate).toBeUndefined();
  handle = await serveHttp(server, {
    port: 0,
    auth: { issuers: ["https://issuer.example"], cacheSeconds: 0, listAllTools: false },
    features: oauthFeature.http,
    log: () => {},
  });
  const gate = server.options.toolGate;
  const caller = { subject: "u", scopes: ["read"], claims: {}, issuer: "https://issuer.example", token: "t" };
  expect(gate?.resourceRefusal(["read", "admin"], "secret://x", caller)).toMatch(/needs the OAuth scope\(s\) admin/);
  expect(gate?.resourceRefusal(["read"], "secret://x", caller)).toBeUndefined();
  expect(gate?.showsResource(["admin"], caller)).toBe(false);
  expect(gate?.toolRefusal("any", caller)).toBeUndefined();
});
