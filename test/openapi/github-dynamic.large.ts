/**
 * Issue 14's "done when": the GitHub server (all of @octokit/openapi, 1,000+ tools) in `--mode dynamic`
 * behind Prism, driven by the official SDK client in one session: tools/list gives the five dynamic
 * tools; it searches, browses the issues toolset page by page, describes two tools and calls `issues_get`
 * through call_tool. Run by `npm run test:large`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_META_KEY } from "../../runtime/features/dynamic/dynamic-mode.ts";
import { DYNAMIC_TOOLS } from "../../runtime/features/dynamic/dynamic-tools.ts";
import { scratchDir } from "../generate/support.ts";
import { type GithubSession, githubSession } from "./github-session.ts";

type Obj = Record<string, unknown>;
type Summary = { name: string; description: string; toolset: string };

describe("the GitHub REST API in dynamic mode, one SDK client session", () => {
  const out = scratchDir("github-dynamic");
  let session: GithubSession | undefined;
  const client = () => (session as GithubSession).client;
  const call = async (name: string, args: Obj) => (await client().callTool({ name, arguments: args })) as Obj;
  const structured = <T>(result: Obj) => {
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent as T;
  };

  beforeAll(async () => {
    session = await githubSession(out, "dynamic", "github-dynamic");
  });
  afterAll(() => session?.stop());

  it("lists the five dynamic tools, searches, browses, describes and calls issues_get", async () => {
    const { tools } = await client().listTools();
    expect(tools.map((t) => t.name)).toEqual(DYNAMIC_TOOLS.map((t) => t.name));

    const search = structured<{ tools: Summary[] }>(
      await call("search_tools", { query: "get a single issue by its number" }),
    );
    expect(search.tools.length).toBeGreaterThan(0);
    expect(search.tools.map((t) => t.name)).toContain("issues_get");

    const { toolsets } = structured<{ toolsets: Array<{ name: string; tools: number }> }>(
      await call("list_toolsets", {}),
    );
    const issues = toolsets.find((t) => t.name === "issues");
    expect(issues?.tools).toBeGreaterThan(50);

    const first = structured<{ tools: Summary[]; nextCursor?: string }>(
      await call("list_tools", { toolset: "issues" }),
    );
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = structured<{ tools: Summary[]; nextCursor?: string }>(
      await call("list_tools", { toolset: "issues", cursor: first.nextCursor }),
    );
    const browsed = [...first.tools, ...second.tools];
    expect(new Set(browsed.map((t) => t.name)).size).toBe(browsed.length);
    expect(browsed.every((t) => t.toolset === "issues")).toBe(true);
    expect(browsed.map((t) => t.name)).toContain("issues_get");

    const described = structured<{ tools: Array<{ name: string; inputSchema: { required?: string[] } }> }>(
      await call("describe_tools", { names: ["issues_get", "issues_create"] }),
    );
    expect(described.tools.map((t) => t.name)).toEqual(["issues_get", "issues_create"]);
    expect(described.tools[0].inputSchema.required).toEqual(expect.arrayContaining(["owner", "repo", "issue_number"]));

    const issue = await call("call_tool", {
      name: "issues_get",
      arguments: { owner: "octocat", repo: "hello-world", issue_number: 1347 },
    });
    expect(issue.isError ?? false, JSON.stringify(issue.content)).toBe(false);
    expect(issue._meta).toMatchObject({ [ANNOTATIONS_META_KEY]: { readOnlyHint: true } });
  });
});
