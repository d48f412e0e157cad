/**
 * Auth guidance (issue 33 item 5), end to end: a generated package's `node dist/server.js` against a recording
 * upstream on 127.0.0.1 that wants `Authorization: Bearer good-token`. An OAuth2 implicit scheme (Google
 * Compute's kind) is read from <SCHEME>_TOKEN: a refused token's 401 names that variable, the right one gets
 * through. A document that declares no scheme (Hetzner's kind): the 401 points at src/credentials.ts, and the
 * README's example, pasted there as written, type-checks, compiles and sends the token.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect } from "../../runtime/index.ts";
import { scratchDir, startHttpProcess, startUpstream } from "./support.ts";

type Upstream = Awaited<ReturnType<typeof startUpstream>>;
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream({
    "GET /things": (r) =>
      r.headers.authorization === "Bearer good-token"
        ? { json: { things: ["a", "b"] } }
        : {
            status: 401,
            json: { error: { code: 401, message: "Request is missing required authentication credential" } },
          },
  });
});
afterAll(() => upstream?.close());

const doc = (baseUrl: string, securitySchemes: Record<string, unknown>) => ({
  openapi: "3.0.3",
  info: { title: "Acme Cloud", version: "1.0.0", "x-mcp-registry-name": "io.github.mcpgen-examples/acme-cloud" },
  servers: [{ url: baseUrl }],
  components: { securitySchemes },
  security: Object.keys(securitySchemes).map((id) => ({ [id]: [] })),
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
});

/** Calls listThings on a fresh `node dist/server.js --http` with this environment; the result's text and error flag. */
async function callListThings(pkg: string, env: NodeJS.ProcessEnv) {
  const server = await startHttpProcess(join(pkg, "dist/server.js"), env, [], ["--port", "0"]);
  try {
    const client = await connect({ url: server.url });
    try {
      const result = await client.callTool("listThings", {});
      const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join("\n");
      return { isError: result.isError === true, text };
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
}

describe("auth guidance in a generated server", () => {
  it("OAuth2 implicit: the token comes from ACME_CLOUD_LOGIN_TOKEN; a 401 names it; the right token gets a 200", async () => {
    const dir = scratchDir("auth-guidance-oauth");
    const file = join(dir, "acme.json");
    const scheme = { type: "oauth2", flows: { implicit: { authorizationUrl: "https://auth.acme.example/authorize" } } };
    writeFileSync(file, JSON.stringify(doc(upstream.url, { login: scheme })));
    const pkg = join(dir, "pkg");
    const result = await generate(file, pkg);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "OPENAPI_SECURITY_TOKEN_FROM_ENV",
        "security scheme 'login' (oauth2, implicit flow) needs a user to sign in, which the server cannot do; mapped to a bearer token read from ACME_CLOUD_LOGIN_TOKEN",
      ],
    ]);
    const readme = readFileSync(join(pkg, "README.md"), "utf8");
    expect(readme).toContain("## Authentication");
    expect(readme).toContain("read from `ACME_CLOUD_LOGIN_TOKEN`, as\n`Authorization: Bearer`");
    const serverJson = JSON.parse(readFileSync(join(pkg, "server.json"), "utf8"));
    expect(JSON.stringify(serverJson)).toContain("ACME_CLOUD_LOGIN_TOKEN");

    upstream.requests.length = 0;
    const unset = await callListThings(pkg, {});
    expect(unset).toEqual({
      isError: true,
      text: "set ACME_CLOUD_LOGIN_TOKEN: the upstream API needs credentials for this operation",
    });
    expect(upstream.requests).toHaveLength(0);

    const refused = await callListThings(pkg, { ACME_CLOUD_LOGIN_TOKEN: "expired-token" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Upstream API answered 401 Unauthorized: \{"error".*missing required authentication/);
    expect(refused.text).toMatch(
      /\nThis operation's credentials come from ACME_CLOUD_LOGIN_TOKEN: check that they are set and valid\.$/,
    );
    expect(refused.text).not.toContain("expired-token");
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer expired-token");

    const ok = await callListThings(pkg, { ACME_CLOUD_LOGIN_TOKEN: "good-token" });
    expect(ok).toEqual({ isError: false, text: '{"things":["a","b"]}' });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer good-token");
  }, 240_000);

  it("no scheme declared: the 401 points at src/credentials.ts, and the README's example there sends the token", async () => {
    const dir = scratchDir("auth-guidance-none");
    const file = join(dir, "acme.json");
    writeFileSync(file, JSON.stringify(doc(upstream.url, {})));
    const pkg = join(dir, "pkg");
    expect((await generate(file, pkg)).diagnostics).toEqual([]);

    const before = await callListThings(pkg, { ACME_CLOUD_TOKEN: "good-token" });
    expect(before.isError).toBe(true);
    expect(before.text).toMatch(
      /^Upstream API answered 401 Unauthorized: .*\nNo credentials were sent: return them from src\/credentials\.ts \(the package README's Authentication section\)\.$/s,
    );
    expect(upstream.requests.at(-1)?.headers.authorization).toBeUndefined();

    // The README's example, pasted as written: generate type-checks it (a handler's check) and compiles it.
    const readme = readFileSync(join(pkg, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Authentication"), readme.indexOf("## Per-user upstream"));
    const example = /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example).toContain("process.env.ACME_CLOUD_TOKEN");
    writeFileSync(join(pkg, "src/credentials.ts"), `${example}\n`);
    expect((await generate(file, pkg)).diagnostics).toEqual([]);

    const missing = await callListThings(pkg, {});
    expect(missing).toEqual({ isError: true, text: "Upstream credentials: set ACME_CLOUD_TOKEN to your API token" });
    const ok = await callListThings(pkg, { ACME_CLOUD_TOKEN: "good-token" });
    expect(ok).toEqual({ isError: false, text: '{"things":["a","b"]}' });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer good-token");
  }, 240_000);
});
