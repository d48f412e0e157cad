/**
 * How OpenAPI security schemes become upstream credentials (issue 33 item 5): each OAuth2 flow, OpenID Connect,
 * Swagger 2's flow names, Google's "two schemes in one requirement", and what the generate-time warning, the
 * server's env listing and the package README's Authentication section say about them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import type { ServerNode } from "../../generator/ir.ts";
import { load } from "../../generator/load.ts";
import { normalize } from "../../generator/normalize/normalize.ts";
import { renderDocs } from "../../generator/render/docs.ts";
import { serverEnvVars } from "../../generator/render/server-env.ts";
import { scratchDir } from "../generate/support.ts";

const dir = scratchDir("openapi-security");
let counter = 0;

function run(doc: object) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `doc${counter++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const bag = new DiagnosticBag();
  const loaded = load(file, bag, { openapi: {} });
  const server = loaded?.server as ServerNode;
  const diagnostics = bag.sorted().map((d) => ({ code: d.code, message: d.message, pointer: d.pointer }));
  return { server, diagnostics, security: server.tools[0]?.http?.security };
}

/** A one-operation document with these schemes, required (as alternatives) by the document. */
const doc = (schemes: Record<string, unknown>, security = Object.keys(schemes).map((id) => ({ [id]: [] }))) => ({
  openapi: "3.0.3",
  info: { title: "Acme API", version: "1.0.0" },
  servers: [{ url: "https://api.acme.example" }],
  components: { securitySchemes: schemes },
  security,
  paths: { "/things": { get: { operationId: "listThings", responses: { "200": { description: "ok" } } } } },
});

const AUTH_URL = "https://auth.acme.example/authorize";
const TOKEN_URL = "https://auth.acme.example/token";
const schemesOf = (server: ServerNode) => server.upstream?.securitySchemes?.map(({ loc: _loc, ...rest }) => rest);

describe("OAuth2 flows a server cannot run alone become a bearer token from <SCHEME>_TOKEN", () => {
  const flows = {
    implicit: { implicit: { authorizationUrl: AUTH_URL, scopes: {} } },
    authorizationCode: { authorizationCode: { authorizationUrl: AUTH_URL, tokenUrl: TOKEN_URL, scopes: {} } },
    password: { password: { tokenUrl: TOKEN_URL, scopes: {} } },
  };
  for (const [flow, spec] of Object.entries(flows)) {
    it(`${flow}: a bearer scheme read from ACME_API_LOGIN_TOKEN, and a warning that says so`, () => {
      const { server, diagnostics, security } = run(doc({ login: { type: "oauth2", flows: spec } }));
      const url = flow === "password" ? TOKEN_URL : AUTH_URL;
      // An authorization code flow is also what the upstream-oauth feature signs each user in through.
      const code =
        flow === "authorizationCode" ? { authorizationCode: { authorizationUrl: AUTH_URL, tokenUrl: TOKEN_URL } } : {};
      expect(schemesOf(server)).toEqual([
        { id: "login", type: "bearer", env: "ACME_API_LOGIN_TOKEN", signIn: { flows: [flow], url }, ...code },
      ]);
      expect(security).toEqual([["login"]]);
      // An authorization code flow: said by rules/upstream-oauth.ts once the features are known.
      if (flow === "authorizationCode") return expect(diagnostics).toEqual([]);
      expect(diagnostics).toEqual([
        {
          code: "OPENAPI_SECURITY_TOKEN_FROM_ENV",
          pointer: "/components/securitySchemes/login",
          message: `security scheme 'login' (oauth2, ${flow} flow) needs a user to sign in, which the server cannot do; mapped to a bearer token read from ACME_API_LOGIN_TOKEN`,
        },
      ]);
    });
  }

  it("clientCredentials with a token URL keeps its own mapping (the server fetches tokens), with no warning", () => {
    const { server, diagnostics } = run(
      doc({ app: { type: "oauth2", flows: { clientCredentials: { tokenUrl: TOKEN_URL, scopes: {} } } } }),
    );
    expect(schemesOf(server)).toEqual([
      {
        id: "app",
        type: "oauth2",
        tokenUrl: TOKEN_URL,
        clientIdEnv: "ACME_API_APP_CLIENT_ID",
        clientSecretEnv: "ACME_API_APP_CLIENT_SECRET",
      },
    ]);
    expect(diagnostics).toEqual([]);
  });

  it("clientCredentials without a token URL, beside an implicit flow: a token from the environment", () => {
    const { server, diagnostics } = run(
      doc({
        app: {
          type: "oauth2",
          flows: { clientCredentials: { scopes: {} }, implicit: { authorizationUrl: AUTH_URL, scopes: {} } },
        },
      }),
    );
    expect(schemesOf(server)).toEqual([
      {
        id: "app",
        type: "bearer",
        env: "ACME_API_APP_TOKEN",
        signIn: { flows: ["implicit", "clientCredentials"], url: AUTH_URL },
      },
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("(oauth2, implicit or clientCredentials flow)"),
    ]);
  });

  it("OpenID Connect: a token from the environment; an oauth2 scheme with no flow stays unsupported", () => {
    const { server, diagnostics, security } = run(
      doc({
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.acme.example/.well-known/openid-configuration" },
        broken: { type: "oauth2", flows: {} },
        tls: { type: "mutualTLS" },
      }),
    );
    expect(schemesOf(server)).toEqual([
      {
        id: "oidc",
        type: "bearer",
        env: "ACME_API_OIDC_TOKEN",
        signIn: { flows: ["openIdConnect"], url: "https://auth.acme.example/.well-known/openid-configuration" },
      },
    ]);
    expect(security).toEqual([["oidc"]]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "OPENAPI_SECURITY_TOKEN_FROM_ENV", pointer: "/components/securitySchemes/oidc" }),
      expect.objectContaining({ code: "OPENAPI_SECURITY_UNSUPPORTED", message: expect.stringContaining("no flow") }),
      expect.objectContaining({ code: "OPENAPI_SECURITY_UNSUPPORTED", pointer: "/components/securitySchemes/tls" }),
    ]);
  });

  it("Swagger 2: implicit, accessCode (authorization code) and application (client credentials) flows", () => {
    const { server } = run({
      swagger: "2.0",
      info: { title: "Acme API", version: "1.0.0" },
      host: "api.acme.example",
      schemes: ["https"],
      securityDefinitions: {
        web: { type: "oauth2", flow: "implicit", authorizationUrl: AUTH_URL, scopes: {} },
        code: { type: "oauth2", flow: "accessCode", authorizationUrl: AUTH_URL, tokenUrl: TOKEN_URL, scopes: {} },
        app: { type: "oauth2", flow: "application", tokenUrl: TOKEN_URL, scopes: {} },
      },
      security: [{ web: [] }, { code: [] }, { app: [] }],
      paths: { "/things": { get: { operationId: "listThings", responses: { "200": { description: "ok" } } } } },
    });
    expect(schemesOf(server)).toEqual([
      { id: "web", type: "bearer", env: "ACME_API_WEB_TOKEN", signIn: { flows: ["implicit"], url: AUTH_URL } },
      {
        id: "code",
        type: "bearer",
        env: "ACME_API_CODE_TOKEN",
        signIn: { flows: ["authorizationCode"], url: AUTH_URL },
        authorizationCode: { authorizationUrl: AUTH_URL, tokenUrl: TOKEN_URL },
      },
      {
        id: "app",
        type: "oauth2",
        tokenUrl: TOKEN_URL,
        clientIdEnv: "ACME_API_APP_CLIENT_ID",
        clientSecretEnv: "ACME_API_APP_CLIENT_SECRET",
      },
    ]);
  });

  it("two Authorization schemes in one requirement (Google's documents) are either one, not both", () => {
    const implicit = { type: "oauth2", flows: flows.implicit };
    const code = { type: "oauth2", flows: flows.authorizationCode };
    const key = { type: "apiKey", in: "query", name: "key" };
    const { security } = run(doc({ Oauth2: implicit, Oauth2c: code, key }, [{ Oauth2: [], Oauth2c: [], key: [] }]));
    expect(security).toEqual([
      ["key", "Oauth2"],
      ["key", "Oauth2c"],
    ]);
    // An API key beside one bearer scheme is a real "both": it stays one requirement.
    expect(run(doc({ Oauth2: implicit, key }, [{ Oauth2: [], key: [] }])).security).toEqual([["Oauth2", "key"]]);
  });
});

describe("what the package says about the mapped token", () => {
  it("the server's env listing and the README name the variable, the flow and where a token comes from", () => {
    const { server } = run(doc({ login: { type: "oauth2", flows: { implicit: { authorizationUrl: AUTH_URL } } } }));
    const model = normalize(server, "acme.json");
    expect(serverEnvVars(model).find((v) => v.name === "ACME_API_LOGIN_TOKEN")).toEqual({
      name: "ACME_API_LOGIN_TOKEN",
      description: "OAuth2 access token of scheme login (implicit), obtained beforehand.",
      secret: true,
      required: true,
      format: "string",
      setting: { title: "login" },
    });
    const readme = renderDocs(model);
    expect(readme).toContain(
      `| \`ACME_API_LOGIN_TOKEN\` | OAuth2 access token for \`login\`, from \`${AUTH_URL}\`, sent as a bearer token |`,
    );
    const section = readme.slice(readme.indexOf("## Authentication"), readme.indexOf("## Per-user upstream"));
    expect(section).toContain(
      "The server sends the upstream API the credentials the API's OpenAPI document declares, read from its\nenvironment at each call: `ACME_API_LOGIN_TOKEN` (described under Run it).",
    );
    expect(section).toContain(
      `The scheme \`login\` is an OAuth2 sign-in (\`implicit\`), which a server cannot go through on its\nown: it sends an access token you obtain beforehand (its sign-in URL: \`${AUTH_URL}\`; the API's own CLI or console may issue one too), read from \`ACME_API_LOGIN_TOKEN\`, as\n\`Authorization: Bearer\`.`,
    );
    expect(section).not.toContain("declares no credentials");
  });

  it("a document that declares no scheme (Hetzner's): the README shows a src/credentials.ts that sends a token", () => {
    const { server, diagnostics } = run(doc({}, []));
    expect(server.upstream?.securitySchemes).toBeUndefined();
    expect(diagnostics).toEqual([]);
    const model = normalize(server, "acme.json");
    expect(serverEnvVars(model).map((v) => v.name)).not.toContain("ACME_API_TOKEN");
    const readme = renderDocs(model);
    const section = readme.slice(readme.indexOf("## Authentication"), readme.indexOf("## Per-user upstream"));
    expect(section).toContain(
      "The API's OpenAPI document declares no credentials the server can send from its environment, so it sends\nnone.",
    );
    expect(section).toContain(
      [
        "```ts",
        'import { CredentialsError, type SpecContext, type UpstreamCredentials } from "../runtime/handler-api.ts";',
        "",
        "export default async function credentials(_ctx: SpecContext): Promise<UpstreamCredentials | undefined> {",
        "  const token = process.env.ACME_API_TOKEN;",
        '  if (!token) throw new CredentialsError("set ACME_API_TOKEN to your API token");',
        "  return { bearer: token };",
        "}",
        "```",
      ].join("\n"),
    );
  });

  it("a package that forwards nothing upstream has no Authentication section", () => {
    const { server } = run(doc({}, []));
    const model = normalize({ ...server, tools: [], upstream: undefined }, "acme.json");
    expect(renderDocs(model)).not.toContain("## Authentication");
  });
});
