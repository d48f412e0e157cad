// "https, or http to this machine" (runtime/protocol/loopback-url.ts), as the --auth-* flags and the token
// exchange flag apply it (issue 27 item 9): the host must be a loopback literal or `localhost`, never a
// public name that merely starts like one.
import { describe, expect, test } from "vitest";
import { parseAuthConfig } from "../../../runtime/features/oauth/auth-flags.ts";
import { tokenExchangeConfig } from "../../../runtime/features/token-exchange/token-exchange-config.ts";
import { isSecureOrLoopback } from "../../../runtime/protocol/loopback-url.ts";

const LOOKALIKES = [
  "http://127.evil.example/",
  "http://127.0.0.1.nip.io/",
  "http://localhost.evil.example/",
  "http://127.0.0.1.evil.example:8080/",
  "http://[::2]/",
];
const LOCAL = ["http://127.0.0.1:8080/", "http://127.1/", "http://0x7f.0.0.1/", "http://localhost/", "http://[::1]:9/"];

describe("isSecureOrLoopback", () => {
  test("https anywhere; plain http only to a loopback literal or localhost", () => {
    expect(isSecureOrLoopback(new URL("https://as.example.com/"))).toBe(true);
    for (const url of LOCAL) expect(isSecureOrLoopback(new URL(url)), url).toBe(true);
    for (const url of LOOKALIKES) expect(isSecureOrLoopback(new URL(url)), url).toBe(false);
  });
});

describe("--auth-issuer, --auth-jwks, --auth-introspection", () => {
  const env = { MCP_AUTH_CLIENT_ID: "rs", MCP_AUTH_CLIENT_SECRET: "s3cret" };
  test("refuse plain http to a name that only looks like loopback", () => {
    for (const url of LOOKALIKES) {
      expect(parseAuthConfig({ "auth-issuer": [url] }, env), url).toMatch(/--auth-issuer must use https/);
      const issuer = { "auth-issuer": ["https://as.example.com"] };
      expect(parseAuthConfig({ ...issuer, "auth-jwks": `${url}jwks` }, env), url).toMatch(/--auth-jwks must use https/);
      expect(parseAuthConfig({ ...issuer, "auth-introspection": `${url}introspect` }, env), url).toMatch(
        /--auth-introspection must use https/,
      );
    }
  });

  test("accept loopback addresses and https", () => {
    for (const url of [...LOCAL, "https://as.example.com/"])
      expect(parseAuthConfig({ "auth-issuer": [url], "auth-jwks": `${url}jwks` }, env), url).toMatchObject({
        issuers: [url],
      });
  });
});

describe("--upstream-token-exchange", () => {
  test("the same check", () => {
    const env = { MCP_UPSTREAM_CLIENT_ID: "mcp-server" };
    for (const url of LOOKALIKES)
      expect(
        tokenExchangeConfig({ "upstream-token-exchange": `${url}token`, "upstream-audience": "api" }, true, env),
      ).toMatch(/must be an https URL/);
  });
});
