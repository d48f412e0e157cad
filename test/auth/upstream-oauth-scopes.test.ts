// Issue 34, the generate-time part: an OpenAPI authorizationCode flow turns on `upstream-oauth` (with `oauth`), its
// URLs and scopes reach the catalog, each operation's scopes become what is asked of the API for the user (the
// binding's `scopes`) instead of what MCP tokens must hold, unless the config's `mcpScopes: document` says so; a
// diagnostic says which model applies; the env vars are in the README, server.json and the MCPB manifest.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel, generate } from "../../generator/index.ts";
import { renderDefinition } from "../../generator/render/definition.ts";
import { scratchDir } from "../generate/support.ts";

const AUTHORIZE = "https://github.example/login/oauth/authorize";
const TOKEN = "https://github.example/login/oauth/access_token";
const doc = {
  openapi: "3.1.0",
  info: { title: "Repos", version: "1.0.0" },
  servers: [{ url: "https://api.github.example" }],
  components: {
    securitySchemes: {
      github: {
        type: "oauth2",
        flows: {
          authorizationCode: { authorizationUrl: AUTHORIZE, tokenUrl: TOKEN, scopes: { repo: "", "read:user": "" } },
        },
      },
      key: { type: "apiKey", in: "header", name: "X-Key" },
    },
  },
  paths: {
    "/user": {
      get: { operationId: "getMe", security: [{ github: ["read:user"] }], responses: { "200": { description: "ok" } } },
    },
    "/repos": {
      post: { operationId: "makeRepo", security: [{ github: ["repo"] }], responses: { "200": { description: "ok" } } },
    },
    "/zen": { get: { operationId: "zen", security: [{ key: [] }], responses: { "200": { description: "ok" } } } },
  },
};

type Tool = { name: string; scopes?: string[]; http?: { scopes?: string[]; security?: string[][] } };

function build(options: Parameters<typeof buildModel>[1] = {}) {
  const path = join(scratchDir("uoauth-scopes"), "api.json");
  writeFileSync(path, JSON.stringify(doc));
  const { model, diagnostics } = buildModel(path, options);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  if (!model) throw new Error("no model");
  const catalog = JSON.parse(renderDefinition(model).json) as { tools: Tool[] };
  const tools = Object.fromEntries(catalog.tools.map((tool) => [tool.name, tool]));
  const said = diagnostics.filter((d) => d.code === "UPSTREAM_OAUTH_SCOPES");
  return { model, tools, said, diagnostics, definition: renderDefinition(model).ts };
}

describe("an OpenAPI authorizationCode flow at generate time", () => {
  it("turns upstream-oauth on (with oauth); scopes are asked of the API per user, not demanded of MCP tokens", () => {
    const { model, tools, said, diagnostics, definition } = build();
    expect(model.features.map((f) => f.name)).toEqual(expect.arrayContaining(["oauth", "upstream-oauth"]));
    expect(tools.getMe.scopes).toBeUndefined();
    expect(tools.getMe.http?.scopes).toEqual(["read:user"]);
    expect(tools.makeRepo.http?.scopes).toEqual(["repo"]);
    expect(tools.zen.http?.scopes).toBeUndefined();
    // The flow's URLs and scopes are in the upstream definition the feature reads.
    expect(definition).toContain(AUTHORIZE);
    expect(definition).toContain(TOKEN);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ severity: "info", pointer: "/components/securitySchemes/github" });
    expect(said[0].message).toContain("not demanded of MCP tokens");
    expect(said[0].message).toContain(
      "until MCP_UPSTREAM_CLIENT_ID is set, the server sends the token in REPOS_GITHUB_TOKEN",
    );
    expect(diagnostics.map((d) => d.code)).not.toContain("OPENAPI_SECURITY_TOKEN_FROM_ENV");
    expect(said[0].message).toContain("openapi.mcpScopes: document");
  });

  it("mcpScopes: document: the scopes bind MCP tokens too (the MCP issuer is the API's own server)", () => {
    const mapping = join(scratchDir("uoauth-mapping"), "mapping.yaml");
    writeFileSync(mapping, "mcpScopes: document\n");
    const { tools, said } = build({ openapi: { config: mapping } });
    expect(tools.getMe.scopes).toEqual(["read:user"]);
    expect(tools.getMe.http?.scopes).toEqual(["read:user"]);
    expect(said[0].message).toContain("demanded of MCP tokens too");
  });

  it("without the feature the scopes stay the MCP token's, and the diagnostic says so", () => {
    const { model, tools, said, diagnostics } = build({ features: ["oauth"] });
    expect(model.features.map((f) => f.name)).not.toContain("upstream-oauth");
    expect(tools.getMe.scopes).toEqual(["read:user"]);
    expect(tools.getMe.http?.scopes).toBeUndefined();
    expect(said[0].message).toContain("generated without upstream-oauth");
    expect(diagnostics.find((d) => d.code === "OPENAPI_SECURITY_TOKEN_FROM_ENV")?.message).toBe(
      "security scheme 'github' (oauth2, authorizationCode flow) needs a user to sign in, which the server cannot do; mapped to a bearer token read from REPOS_GITHUB_TOKEN",
    );
  });

  it("names MCP_UPSTREAM_CLIENT_ID, the secret and the token key in the README, server.json and the MCPB manifest", async () => {
    const dir = scratchDir("uoauth-files");
    writeFileSync(join(dir, "api.json"), JSON.stringify(doc));
    await generate(join(dir, "api.json"), join(dir, "pkg"));
    const read = (file: string) => readFileSync(join(dir, "pkg", file), "utf8");
    const readme = read("README.md");
    for (const name of [
      "MCP_UPSTREAM_CLIENT_ID",
      "MCP_UPSTREAM_CLIENT_SECRET",
      "MCP_UPSTREAM_TOKEN_KEY",
      "--public-url",
    ])
      expect(readme).toContain(name);
    expect(readme).toContain("/oauth/upstream/callback");
    const serverJson = JSON.parse(read("server.json")) as {
      packages: { environmentVariables?: { name: string; isSecret?: boolean }[] }[];
    };
    const vars = serverJson.packages.flatMap((p) => p.environmentVariables ?? []);
    expect(vars.find((v) => v.name === "MCP_UPSTREAM_CLIENT_SECRET")?.isSecret).toBe(true);
    expect(vars.find((v) => v.name === "MCP_UPSTREAM_TOKEN_KEY")?.isSecret).toBe(true);
    expect(vars.some((v) => v.name === "MCP_UPSTREAM_CLIENT_ID")).toBe(true);
    expect(vars.filter((v) => v.name === "MCP_UPSTREAM_CLIENT_ID")).toHaveLength(1);
    // An MCPB bundle runs over stdio, where the sign-in pages cannot be served: it does not ask for them.
    expect(read("manifest.json")).not.toContain("MCP_UPSTREAM_TOKEN_KEY");
  }, 120_000);
});
