// Issue 27 item 4: a resource template made from an OpenAPI operation needs the operation's OAuth scopes,
// as the operation's tool would. A generated package run as `node dist/server.js --http --auth-issuer ...`
// with a real oidc-provider's keys and a recording upstream: a token without the scope gets 403
// insufficient_scope on resources/read (and subscribe), the upstream is never reached, and the template is
// left out of resources/templates/list; with the scope it reads through.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { scratchDir, startUpstream } from "../generate/support.ts";
import { type OidcTestProvider, startOidcProvider } from "../support/oidc-provider.ts";
import { openSession, post, resultOf, type ServerProcess, startServer } from "./support.ts";

const DOC = {
  openapi: "3.1.0",
  info: { title: "vault", version: "1.0.0" },
  servers: [{ url: "https://vault.example" }],
  components: {
    securitySchemes: {
      oauth: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: "https://as.example/authorize",
            tokenUrl: "https://as.example/token",
            scopes: { "secrets:read": "read secrets" },
          },
        },
      },
    },
  },
  paths: {
    "/secrets/{id}": {
      get: {
        operationId: "getSecret",
        security: [{ oauth: ["secrets:read"] }],
        "x-mcp": { resourceTemplate: { uriTemplate: "vault://secrets/{id}" } },
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/secrets": {
      get: {
        operationId: "listSecrets",
        security: [{ oauth: ["secrets:read"] }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/notes/{id}": {
      get: {
        operationId: "getNote",
        "x-mcp": { resourceTemplate: { uriTemplate: "vault://notes/{id}" } },
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
};

let op: OidcTestProvider;
let server: ServerProcess;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let pkg: string;

beforeAll(async () => {
  op = await startOidcProvider();
  upstream = await startUpstream({
    "GET /secrets/*": () => ({ json: { secret: "hunter2" } }),
    "GET /secrets": () => ({ json: { secrets: [] } }),
    "GET /notes/*": () => ({ json: { note: "hello" } }),
  });
  const dir = scratchDir("resource-scopes");
  writeFileSync(join(dir, "vault.json"), JSON.stringify(DOC));
  pkg = join(dir, "pkg");
  const result = await generate(join(dir, "vault.json"), pkg, { features: ["oauth"] });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  // The upstream's authorization-code scheme reads its token from VAULT_OAUTH_TOKEN (issue 33): a server cannot sign in.
  server = await startServer(pkg, ["--auth-issuer", op.issuer, "--base-url", upstream.url], {
    VAULT_OAUTH_TOKEN: "upstream-token",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  await op?.stop();
});

const tokenWith = (scope: string) => op.signToken({ sub: "alice", aud: server.url, scope });
const read = (uri: string, token: string, session: string) =>
  post(server.url, { id: 3, method: "resources/read", params: { uri } }, { token, session });
const templates = async (token: string, session: string) =>
  resultOf<{ resourceTemplates: { uriTemplate: string }[] }>(
    await post(server.url, { id: 4, method: "resources/templates/list" }, { token, session }),
  ).resourceTemplates.map((template) => template.uriTemplate);

describe("a resource template inherits its operation's scopes", () => {
  it("the catalog states them", () => {
    const catalog = JSON.parse(readFileSync(join(pkg, "src/catalog.json"), "utf8")) as {
      resourceTemplates: { uriTemplate: string; scopes?: string[] }[];
    };
    expect(Object.fromEntries(catalog.resourceTemplates.map((t) => [t.uriTemplate, t.scopes]))).toEqual({
      "vault://secrets/{id}": ["secrets:read"],
      "vault://notes/{id}": undefined,
    });
  });

  it("a token without the scope: 403 insufficient_scope for the read, as for the tool; the upstream is never reached", async () => {
    const token = await tokenWith("other");
    const session = await openSession(server.url, token);
    upstream.requests.length = 0;
    const tool = await post(
      server.url,
      { id: 2, method: "tools/call", params: { name: "listSecrets", arguments: {} } },
      { token, session },
    );
    expect(tool.status).toBe(403);
    const answer = await read("vault://secrets/42", token, session);
    expect(answer.status).toBe(403);
    expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(answer.headers.get("www-authenticate")).toContain('scope="secrets:read"');
    const subscribe = await post(
      server.url,
      { id: 5, method: "resources/subscribe", params: { uri: "vault://secrets/42" } },
      { token, session },
    );
    expect(subscribe.status).toBe(403);
    expect(upstream.requests.map((request) => request.path)).toEqual([]);
    // Hidden from the listing as the tool is; a template without scopes stays readable.
    expect(await templates(token, session)).toEqual(["vault://notes/{id}"]);
    expect((await read("vault://notes/7", token, session)).status).toBe(200);
  });

  it("a token with the scope reads it through and sees it listed", async () => {
    const token = await tokenWith("secrets:read");
    const session = await openSession(server.url, token);
    upstream.requests.length = 0;
    const answer = await read("vault://secrets/42", token, session);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain("hunter2");
    expect(upstream.requests.map((request) => request.path)).toEqual(["/secrets/42"]);
    expect(upstream.requests[0].headers.authorization).toBe("Bearer upstream-token");
    expect((await templates(token, session)).sort()).toEqual(["vault://notes/{id}", "vault://secrets/{id}"]);
  });

  it("the resource metadata's scopes_supported names the template's scope", async () => {
    const prm = await fetch(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(((await prm.json()) as { scopes_supported?: string[] }).scopes_supported).toContain("secrets:read");
  });
});
