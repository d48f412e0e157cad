// The token exchange's flags and env twins (runtime/features/token-exchange/token-exchange-config.ts): off unless asked for,
// the token endpoint over TLS or on this machine, the audience and the client required, flags before env.
import { describe, expect, test } from "vitest";
import { tokenExchangeConfig } from "../../../../runtime/features/token-exchange/token-exchange-config.ts";

const client = { MCP_UPSTREAM_CLIENT_ID: "mcp-server", MCP_UPSTREAM_CLIENT_SECRET: "s3cret-value" };

describe("tokenExchangeConfig", () => {
  test("off when neither the flag nor MCP_UPSTREAM_TOKEN_EXCHANGE is set", () => {
    expect(tokenExchangeConfig({}, true, {})).toBeUndefined();
  });

  test("reads the env twins; the flags win over them", () => {
    const env = {
      ...client,
      MCP_UPSTREAM_TOKEN_EXCHANGE: "https://login.example.com/realms/acme/protocol/openid-connect/token",
      MCP_UPSTREAM_AUDIENCE: "env-audience",
      MCP_UPSTREAM_SCOPE: "read",
    };
    expect(tokenExchangeConfig({}, true, env)).toEqual({
      tokenEndpoint: env.MCP_UPSTREAM_TOKEN_EXCHANGE,
      audience: "env-audience",
      scope: "read",
      clientId: "mcp-server",
      clientSecret: "s3cret-value",
    });
    expect(tokenExchangeConfig({ "upstream-audience": "flag-audience" }, true, env)).toMatchObject({
      audience: "flag-audience",
    });
  });

  test("http only to this machine; a public client (no secret) is allowed", () => {
    const flags = { "upstream-token-exchange": "http://127.0.0.1:8080/token", "upstream-audience": "api" };
    expect(tokenExchangeConfig(flags, true, { MCP_UPSTREAM_CLIENT_ID: "pub" })).toEqual({
      tokenEndpoint: "http://127.0.0.1:8080/token",
      audience: "api",
      clientId: "pub",
    });
    expect(
      tokenExchangeConfig({ ...flags, "upstream-token-exchange": "http://as.example.com/token" }, true, client),
    ).toMatch(/^--upstream-token-exchange must be an https URL/);
  });

  test("each missing piece is named", () => {
    const endpoint = { "upstream-token-exchange": "https://as.example.com/token" };
    expect(tokenExchangeConfig(endpoint, false, client)).toMatch(/needs --http/);
    expect(tokenExchangeConfig(endpoint, true, client)).toMatch(/needs --upstream-audience/);
    expect(tokenExchangeConfig({ ...endpoint, "upstream-audience": "api" }, true, {})).toMatch(
      /needs MCP_UPSTREAM_CLIENT_ID/,
    );
    expect(tokenExchangeConfig({ "upstream-scope": "read" }, true, client)).toMatch(/need --upstream-token-exchange/);
  });
});
