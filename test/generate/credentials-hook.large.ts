/**
 * src/credentials.ts, a package's per-user upstream credentials hook (issue 17): scaffolded once in a package
 * that forwards upstream, never overwritten, type-checked like a handler, and what `node dist/server.js`
 * calls before each upstream request. Over real HTTP with a real process: the client's Authorization header
 * (here MCP_HTTP_TOKEN's) never reaches the recording upstream; the hook's credentials do.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { connect } from "../../runtime/index.ts";
import { scratchDir, startHttpProcess, startUpstream } from "./support.ts";

const spec = (
  baseUrl: string,
) => `server: { name: per-user, version: 1.0.0, registryName: io.github.mcpgen-examples/per-user }
upstream:
  baseUrl: ${baseUrl}
  auth: { type: bearer, env: PER_USER_SHARED_TOKEN }
tools:
  - name: whoami
    description: Who the upstream thinks you are.
    inputSchema: { type: object, properties: {} }
    http: { method: GET, path: /me }
`;

const handlerOnly = `server: { name: local, version: 1.0.0, registryName: io.github.mcpgen-examples/local }
tools:
  - name: hello
    inputSchema: { type: object, properties: {} }
`;

const hook = `import type { SpecContext, UpstreamCredentials } from "../runtime/handler-api.ts";

// Mine: mcpgen must never touch it.
export default async function credentials(ctx: SpecContext): Promise<UpstreamCredentials | undefined> {
  return { headers: { "x-user-key": \`key-for-\${ctx.auth?.subject ?? "anonymous"}\` } };
}
`;

describe("src/credentials.ts", () => {
  it("is scaffolded once where a package forwards upstream, and wired into app.ts and server.ts", async () => {
    const dir = scratchDir("credentials-hook");
    writeFileSync(join(dir, "local.yaml"), handlerOnly);
    await generate(join(dir, "local.yaml"), join(dir, "local"));
    expect(existsSync(join(dir, "local/src/credentials.ts"))).toBe(false);
    expect(readFileSync(join(dir, "local/src/app.ts"), "utf8")).not.toContain("credentials");

    writeFileSync(join(dir, "api.yaml"), spec("https://api.example.com"));
    const pkg = join(dir, "api");
    const first = await generate(join(dir, "api.yaml"), pkg);
    expect(first.outcome?.created).toEqual(["src/credentials.ts"]);
    const scaffold = readFileSync(join(pkg, "src/credentials.ts"), "utf8");
    expect(scaffold).toContain("Written once by mcpgen and yours from now on");
    expect(scaffold).toContain(
      "export default async function credentials(_ctx: SpecContext): Promise<UpstreamCredentials | undefined> {",
    );
    expect(readFileSync(join(pkg, "src/app.ts"), "utf8")).toContain('import credentials from "./credentials.ts";');
    expect(readFileSync(join(pkg, "src/server.ts"), "utf8")).toContain(
      "await runSpecServer(definition, {\n  handlers,\n  validators: toolValidators,\n  credentials,\n  features,\n  flagSets,\n  absentFeatures,\n});",
    );
    const record = JSON.parse(readFileSync(join(pkg, ".mcpgen/files.json"), "utf8"));
    expect(record.scaffolded["src/credentials.ts"]).toBe("upstream credentials");
    expect(record.generated).not.toContain("src/credentials.ts");

    writeFileSync(join(pkg, "src/credentials.ts"), hook);
    const again = await generate(join(dir, "api.yaml"), pkg);
    expect(again.diagnostics).toEqual([]);
    expect(again.outcome?.created).toEqual([]);
    expect(readFileSync(join(pkg, "src/credentials.ts"), "utf8")).toBe(hook);
    const check = await generate(join(dir, "api.yaml"), pkg, { check: true });
    expect(check.diagnostics).toEqual([]);
    expect(check.outcome?.changed).toEqual([]);

    // A hook that no longer type-checks is reported like a handler.
    writeFileSync(join(pkg, "src/credentials.ts"), hook.replace("headers: {", "headerz: {"));
    const broken = await generate(join(dir, "api.yaml"), pkg, { check: true });
    expect(broken.diagnostics.map((d) => d.code)).toEqual(["HANDLER_TYPE_ERROR"]);
  }, 120_000);

  it("node dist/server.js sends the hook's credentials upstream, never the client's Authorization header", async () => {
    const upstream = await startUpstream({ "GET /me": () => ({ json: { me: "ok" } }) });
    const dir = scratchDir("credentials-hook-run");
    writeFileSync(join(dir, "api.yaml"), spec(upstream.url));
    const pkg = join(dir, "api");
    await generate(join(dir, "api.yaml"), pkg);
    writeFileSync(join(pkg, "src/credentials.ts"), hook);
    await generate(join(dir, "api.yaml"), pkg);
    expect(readFileSync(join(pkg, "dist/src/credentials.js"), "utf8")).toContain("x-user-key");

    const clientToken = "static-mcp-client-token-1234";
    const env = { MCP_HTTP_TOKEN: clientToken, PER_USER_SHARED_TOKEN: "shared-upstream-token" };
    const server = await startHttpProcess(join(pkg, "dist/server.js"), env, [], ["--port", "0"]);
    try {
      const client = await connect({ url: server.url, bearerToken: clientToken });
      try {
        const result = await client.callTool("whoami", {});
        expect(result.isError).not.toBe(true);
      } finally {
        await client.close();
      }
      expect(upstream.requests).toHaveLength(1);
      const headers = upstream.requests[0].headers;
      expect(headers["x-user-key"]).toBe("key-for-anonymous");
      // The hook's credentials replace the spec's env ones, and nothing of the client's request goes along.
      expect(headers.authorization).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain(clientToken);
    } finally {
      await server.stop();
      await upstream.close();
    }
  }, 120_000);
});
