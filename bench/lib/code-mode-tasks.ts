// The three multi-step GitHub tasks of the code-mode bench (bench/code-mode.ts), each written twice: as
// the steps an agent takes one tool call at a time (all and dynamic mode), and as the one program it
// sends to execute in code mode. Same repository, same arguments, same result in both forms.
type Obj = Record<string, unknown>;

/** One tool call at a time: `find` is how the agent learns a tool's arguments (a no-op in all mode). */
export type Agent = {
  find(query: string, tool: string): Promise<void>;
  call(tool: string, args: Obj): Promise<unknown>;
};

export type CodeModeTask = {
  id: string;
  title: string;
  /** The searches an agent makes before it can use each tool: [plain-words query, tool it finds]. */
  searches: Array<[string, string]>;
  run(agent: Agent): Promise<unknown>;
  /** The same task as the body of execute's async function. */
  code: string;
};

const repo = { owner: "octocat", repo: "hello-world" };
const list = (value: unknown) => (Array.isArray(value) ? (value as Obj[]) : []);

const wontfix: CodeModeTask = {
  id: "wontfix",
  title: "Close every open issue labelled wontfix (at most 3) with a comment",
  searches: [
    ["list the issues of a repository", "issues_list-for-repo"],
    ["comment on an issue", "issues_create-comment"],
    ["close an issue", "issues_update"],
  ],
  async run(agent) {
    for (const [query, tool] of this.searches) await agent.find(query, tool);
    const issues = list(
      await agent.call("issues_list-for-repo", { ...repo, state: "open", labels: "wontfix", per_page: 3 }),
    );
    for (const issue of issues.slice(0, 3)) {
      const issue_number = issue.number as number;
      await agent.call("issues_create-comment", { ...repo, issue_number, body: "Closing: we will not fix this." });
      await agent.call("issues_update", { ...repo, issue_number, state: "closed", state_reason: "not_planned" });
    }
    return issues.length;
  },
  code: `const repo = { owner: "octocat", repo: "hello-world" };
const issues = await api["issues_list-for-repo"]({ ...repo, state: "open", labels: "wontfix", per_page: 3 });
const closed = [];
for (const issue of issues.slice(0, 3)) {
  await api["issues_create-comment"]({ ...repo, issue_number: issue.number, body: "Closing: we will not fix this." });
  await api.issues_update({ ...repo, issue_number: issue.number, state: "closed", state_reason: "not_planned" });
  closed.push(issue.number);
}
return { closed };`,
};

const pullFiles: CodeModeTask = {
  id: "pull-files",
  title: "The 3 most recently updated open pull requests and their changed files",
  searches: [
    ["list pull requests", "pulls_list"],
    ["list the files changed in a pull request", "pulls_list-files"],
  ],
  async run(agent) {
    for (const [query, tool] of this.searches) await agent.find(query, tool);
    const pulls = list(
      await agent.call("pulls_list", { ...repo, state: "open", sort: "updated", direction: "desc", per_page: 3 }),
    );
    for (const pull of pulls.slice(0, 3))
      await agent.call("pulls_list-files", { ...repo, pull_number: pull.number as number, per_page: 30 });
    return pulls.length;
  },
  code: `const repo = { owner: "octocat", repo: "hello-world" };
const pulls = await api.pulls_list({ ...repo, state: "open", sort: "updated", direction: "desc", per_page: 3 });
const answer = [];
for (const pull of pulls.slice(0, 3)) {
  const files = await api["pulls_list-files"]({ ...repo, pull_number: pull.number, per_page: 30 });
  answer.push({ number: pull.number, title: pull.title, files: files.map((file) => file.filename) });
}
return answer;`,
};

const labels: CodeModeTask = {
  id: "labels",
  title: "Summarise the labels used by open issues (30 most recent)",
  searches: [["list the issues of a repository", "issues_list-for-repo"]],
  async run(agent) {
    for (const [query, tool] of this.searches) await agent.find(query, tool);
    // The agent reads the labels off the list itself: the whole list lands in its context.
    return list(await agent.call("issues_list-for-repo", { ...repo, state: "open", per_page: 30 })).length;
  },
  code: `const issues = await api["issues_list-for-repo"]({ owner: "octocat", repo: "hello-world", state: "open", per_page: 30 });
const counts = {};
for (const issue of issues)
  for (const label of issue.labels ?? []) {
    const name = typeof label === "string" ? label : label.name;
    counts[name] = (counts[name] ?? 0) + 1;
  }
return { issues: issues.length, labels: counts };`,
};

export const TASKS: CodeModeTask[] = [wontfix, pullFiles, labels];
