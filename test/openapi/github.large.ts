/**
 * All of GitHub's REST API (@octokit/openapi, about 1,000 operations): it generates without errors,
 * the package compiles under `tsc --strict`, the server serves tools/list, and a few tools are called
 * through Prism serving the same document. Run by `npm run test:large` (and CI).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { ROOT, type RunningHttpServer, scratchDir, startHttpServer } from "../generate/support.ts";
import { type Prism, startPrism } from "./prism.ts";

const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
type Result = { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: unknown };
type Client = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
};
const expectOk = (result: Result) => expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
const timed = async <T>(label: string, work: () => Promise<T> | T): Promise<T> => {
  const start = Date.now();
  const value = await work();
  process.stderr.write(`github: ${label} took ${((Date.now() - start) / 1000).toFixed(1)} s\n`);
  return value;
};

describe("the GitHub REST API", () => {
  const out = scratchDir("github");
  let prism: Prism | undefined;
  let server: RunningHttpServer | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    const result = await timed("generate", () => generate(GITHUB, out));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await prism?.stop();
  });

  it("compiles under tsc --strict", async () => {
    // The package's own tsconfig (strict). allowJs is switched off here: it would make tsc parse the
    // precompiled validator chunks (megabytes of ajv output) that validators.ts already types.
    const tsc = await timed("tsc", () =>
      spawnSync(
        process.execPath,
        [
          join(ROOT, "node_modules/typescript/bin/tsc"),
          "-p",
          join(out, "tsconfig.json"),
          "--noEmit",
          "--allowJs",
          "false",
        ],
        { encoding: "utf8" },
      ),
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("serves tools/list with one tool per operation", async () => {
    prism = await timed("prism start", () => startPrism(GITHUB, { dynamic: true }));
    server = await timed("server start", () =>
      startHttpServer(out, ["--base-url", prism!.url], { GITHUB_V3_REST_API_TOKEN: "t" }),
    );
    const { connect } = (await import(join(out, "src/client.ts"))) as { connect(o: { url: string }): Promise<Client> };
    client = await connect({ url: server.url });
    const { tools } = await timed("tools/list", () => client!.listTools());
    expect(tools.length).toBeGreaterThan(900);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it("calls a few tools through Prism", async () => {
    expect(client).toBeDefined();
    const c = client!;
    expectOk(await c.callTool("meta_get-zen", {}));
    expectOk(await c.callTool("repos_get", { owner: "octocat", repo: "hello-world" }));
    expectOk(
      await c.callTool("issues_list-for-repo", { owner: "octocat", repo: "hello-world", state: "open", per_page: 5 }),
    );
    expectOk(
      await c.callTool("issues_create", {
        owner: "octocat",
        repo: "hello-world",
        title: "Found a bug",
        labels: ["bug"],
      }),
    );
    expectOk(await c.callTool("search_repos", { q: "mcp language:typescript", sort: "stars" }));
  });
});
