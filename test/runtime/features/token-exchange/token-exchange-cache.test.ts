// The RFC 8693 exchange's cache (runtime/features/token-exchange/token-exchange.ts; issue 27 item 8): two clients of one
// user hold different MCP tokens; the authorization server (a real HTTP token endpoint on 127.0.0.1) grants
// the exchange for one and refuses it for the other, which must then get the refusal, not the first one's
// cached upstream token.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenExchanger } from "../../../../runtime/features/token-exchange/token-exchange.ts";
import type { AuthPrincipal } from "../../../../runtime/server/auth-principal.ts";

let server: Server;
let endpoint: string;
const subjectTokens: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const subject = new URLSearchParams(body).get("subject_token") ?? "";
      subjectTokens.push(subject);
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      // Only the token with the full scopes may be exchanged.
      if (subject === "token-of-full-client") return json(200, { access_token: "upstream-full", expires_in: 600 });
      json(400, { error: "invalid_scope" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const caller = (token: string, scopes: string[]): AuthPrincipal => ({
  subject: "alice",
  issuer: "https://as.example",
  scopes,
  claims: { sub: "alice" },
  token,
});

describe("token exchange cache", () => {
  it("is keyed by the presented token: a second client of the same user whose exchange is refused gets the refusal", async () => {
    const exchange = tokenExchanger({ tokenEndpoint: endpoint, audience: "https://api.example", clientId: "mcp" });
    const full = caller("token-of-full-client", ["secrets:read", "things:read"]);
    const narrow = caller("token-of-narrow-client", ["things:read"]);
    expect(await exchange(full)).toBe("upstream-full");
    await expect(exchange(narrow)).rejects.toThrow(/status 400 \(invalid_scope\)/);
    // The granted one is still cached for its own token: one exchange for it, one (refused) for the other.
    expect(await exchange(full)).toBe("upstream-full");
    expect(subjectTokens).toEqual(["token-of-full-client", "token-of-narrow-client"]);
  });
});
