// Scopes per tool reach the catalog (issue 17): `scopes:` in the spec language, and OpenAPI's oauth2 /
// openIdConnect security requirements of an operation (its own, else the document's).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../generator/index.ts";
import { renderDefinition } from "../../generator/render/definition.ts";
import { renderDocs } from "../../generator/render/docs.ts";

function modelOf(file: string, text: string) {
  const path = join(mkdtempSync(join(tmpdir(), "scopes-")), file);
  writeFileSync(path, text);
  const { model, diagnostics } = buildModel(path);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return model as NonNullable<typeof model>;
}

function scopesOf(file: string, text: string): Record<string, string[] | undefined> {
  const model = modelOf(file, text);
  const catalog = JSON.parse(renderDefinition(model).json) as {
    tools: { name: string; scopes?: string[] }[];
  };
  return Object.fromEntries(catalog.tools.map((tool) => [tool.name, tool.scopes]));
}

describe("tool scopes in the catalog", () => {
  it("spec language: scopes: on a tool, duplicates dropped; none means no entry", () => {
    const spec = `server: { name: t, version: 1.0.0 }
tools:
  - { name: a, scopes: [x:read, x:read, x:write], inputSchema: { type: object } }
  - { name: b, inputSchema: { type: object } }
`;
    expect(scopesOf("t.yaml", spec)).toEqual({ a: ["x:read", "x:write"], b: undefined });
    // The package README names them under the tool.
    expect(renderDocs(modelOf("t.yaml", spec))).toContain("OAuth scopes (with `--auth-issuer`): `x:read`, `x:write`");
  });

  it("OpenAPI: the operation's oauth2/openIdConnect scopes, else the document's; apiKey requirements add none", () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1.0.0" },
      servers: [{ url: "https://api.example.com" }],
      security: [{ oauth: ["pets:read"] }],
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: "https://a/x",
                tokenUrl: "https://a/t",
                scopes: { "pets:read": "", "pets:write": "" },
              },
            },
          },
          oidc: { type: "openIdConnect", openIdConnectUrl: "https://a/.well-known/openid-configuration" },
          key: { type: "apiKey", in: "header", name: "X-Key" },
        },
      },
      paths: {
        "/pets": {
          get: { operationId: "listPets", responses: { "200": { description: "ok" } } },
          post: {
            operationId: "addPet",
            security: [{ key: [] }, { oidc: ["pets:write", "openid"] }],
            responses: { "200": { description: "ok" } },
          },
          delete: { operationId: "dropPets", security: [{ key: [] }], responses: { "200": { description: "ok" } } },
        },
      },
    };
    // listPets signs its user in to the API (an authorizationCode scheme, feature upstream-oauth): its scopes are
    // the API's to grant, asked of it per user (test/auth/upstream-oauth-scopes.test.ts), not the MCP token's.
    expect(scopesOf("o.json", JSON.stringify(doc))).toEqual({
      listPets: undefined,
      addPet: ["pets:write", "openid"],
      dropPets: undefined,
    });
  });

  it("spec language: scopes: on resources and templates reach the catalog (issue 27), and must be scope tokens", () => {
    const spec = `server: { name: t, version: 1.0.0 }
resources:
  - { uri: "t://a", name: a, text: hi, scopes: [a:read, a:read] }
resourceTemplates:
  - { uriTemplate: "t://b/{id}", name: b, scopes: [b:read] }
  - { uriTemplate: "t://c/{id}", name: c }
`;
    const catalog = JSON.parse(renderDefinition(modelOf("r.yaml", spec)).json) as {
      resources: { scopes?: string[] }[];
      resourceTemplates: { scopes?: string[] }[];
    };
    expect(catalog.resources.map((r) => r.scopes)).toEqual([["a:read"]]);
    expect(catalog.resourceTemplates.map((t) => t.scopes)).toEqual([["b:read"], undefined]);
    const path = join(mkdtempSync(join(tmpdir(), "scopes-")), "bad.yaml");
    writeFileSync(path, spec.replace("[b:read]", '["b read"]'));
    expect(buildModel(path).diagnostics.map((d) => d.code)).toContain("TOOL_SCOPE_INVALID");
  });
});
