/**
 * MCP_BASE_URL, the env twin of --base-url (issue 16: an MCPB bundle configures its server through the
 * environment only): it points every http binding at another API, a bad value exits 2 naming the
 * variable, and the flag wins over it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, scratchDir, startUpstream } from "./support.ts";

const pkg = join(scratchDir("base-url-env"), "petstore");
const entry = join(pkg, "src/server.ts");
let upstream: Awaited<ReturnType<typeof startUpstream>>;

beforeAll(async () => {
  const result = await generate(join(ROOT, "specs/petstore.yaml"), pkg);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  upstream = await startUpstream({ "GET /pets": () => ({ json: { items: [], next: null } }) });
});
afterAll(async () => {
  await upstream?.close();
});

/** The server's exit code and stderr with stdin closed at once (a stdio server then ends). */
function start(env: Record<string, string>, args: string[] = []) {
  const run = spawnSync(process.execPath, ["--import", "tsx", entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    input: "",
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: run.status, stderr: run.stderr };
}

describe("MCP_BASE_URL", () => {
  it("sends the http bindings to the API it names", async () => {
    const client = new Client({ name: "base-url-env", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", entry],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", PETSTORE_API_KEY: "k-123", MCP_BASE_URL: upstream.url },
        stderr: "pipe",
      }),
    );
    try {
      const result = await client.callTool({ name: "listPets", arguments: {} });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(upstream.requests.map((r) => [r.method, r.path, r.headers["x-api-key"]])).toEqual([
      ["GET", "/pets", "k-123"],
    ]);
  });

  it("a value that is no http(s) URL exits 2 naming MCP_BASE_URL; --base-url wins over it", () => {
    const bad = start({ MCP_BASE_URL: "ftp://example.com" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("MCP_BASE_URL must be an http(s) URL, not 'ftp://example.com'");
    const flag = start({ MCP_BASE_URL: "ftp://example.com" }, ["--base-url", upstream.url]);
    expect(flag.stderr).not.toContain("MCP_BASE_URL");
    expect(flag.code).toBe(0);
  });
});
