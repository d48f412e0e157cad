/**
 * Issue 15's end to end: the GitHub server (all of @octokit/openapi) in `--mode code` behind Prism,
 * driven by the official SDK client: tools/list gives search_docs and execute; search_docs finds
 * issues_get's declaration; one execute lists a repository's issues, filters them in code and fetches
 * two of them, returning the combined answer in one call. Run by `npm run test:large`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_TOOLS } from "../../runtime/features/code/code-tools.ts";
import { scratchDir } from "../generate/support.ts";
import { type GithubSession, githubSession } from "./github-session.ts";

type Obj = Record<string, unknown>;

/** What the agent would write: one program instead of one tool call per step. */
// Prism's generated list may hold a single issue: the code then tops the list up with octocat's issue 1347.
const LIST_FILTER_FETCH = `const repo = { owner: "octocat", repo: "hello-world" };
const issues = await api["issues_list-for-repo"]({ ...repo, state: "open", per_page: 10 });
console.log("listed", issues.length);
const numbers = [...new Set(issues.map((issue) => issue.number).filter((n) => Number.isInteger(n)))];
while (numbers.length < 2) numbers.push(1347 + numbers.length);
const fetched = [];
for (const issue_number of numbers.slice(0, 2)) {
  const issue = await api.issues_get({ ...repo, issue_number });
  fetched.push({ number: issue.number, title: issue.title, state: issue.state });
}
return { listed: issues.length, fetched };`;

describe("the GitHub REST API in code mode, one SDK client session", () => {
  const out = scratchDir("github-code");
  let session: GithubSession | undefined;
  const client = () => (session as GithubSession).client;
  const call = async (name: string, args: Obj) => (await client().callTool({ name, arguments: args })) as Obj;
  const text = (result: Obj) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? "");

  beforeAll(async () => {
    session = await githubSession(out, "code", "github-code");
  });
  afterAll(() => session?.stop());

  it("lists the two code-mode tools and search_docs finds issues_get", async () => {
    const { tools } = await client().listTools();
    expect(tools).toEqual(CODE_TOOLS);
    const docs = await call("search_docs", { query: "get a single issue by its number" });
    expect(docs.isError ?? false, JSON.stringify(docs.content)).toBe(false);
    expect((docs.structuredContent as { tools: string[] }).tools).toContain("issues_get");
    expect(text(docs).join("\n")).toContain("issues_get");
  });

  it("one execute lists issues, filters them in code and fetches two, returning the combined answer", async () => {
    const result = await call("execute", { code: LIST_FILTER_FETCH });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    const [value, logs] = text(result);
    const answer = JSON.parse(value) as { listed: number; fetched: Array<{ number: unknown; title: unknown }> };
    expect(answer.listed).toBeGreaterThan(0);
    expect(answer.fetched).toHaveLength(2);
    for (const issue of answer.fetched) {
      expect(issue.number).toEqual(expect.any(Number));
      expect(issue.title).toEqual(expect.any(String));
    }
    expect(logs).toContain("listed");
  });
});
