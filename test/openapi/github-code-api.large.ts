/**
 * Code mode's typed API docs for all of GitHub's REST API: src/code-api.json generated from the real
 * document, and search_docs' declarations for a handful of tools compile under tsc --strict with a
 * snippet that calls them and reads their results, and reject wrong calls. Reports the file's size and
 * what the four tools' declarations cost in tokens. Run by `npm run test:large`.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { declarationsFor, loadCodeApi } from "../../runtime/features/code/code-api.ts";
import { ROOT, scratchDir } from "../generate/support.ts";
import { errorsOn, errorsOutside, typeCheck } from "../generate/type-check.ts";

const SPEC = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const TOOLS = ["issues_get", "issues_list-for-repo", "repos_get", "pulls_list"];

const VALID = `
export async function agent(): Promise<string> {
  const issue = await api.issues_get({ owner: "octocat", repo: "hello", issue_number: 1, _fields: ["title"] });
  const title: string | undefined = issue.title;
  const author: string | undefined = issue.user?.login;
  const labels = (issue.labels ?? []).map((label) => (typeof label === "string" ? label : label.name));
  const repo = await api.repos_get({ owner: "octocat", repo: "hello" });
  const stars: number | undefined = repo.stargazers_count;
  const owner: string | undefined = repo.owner?.login;
  const listed = await api["issues_list-for-repo"]({ owner: "octocat", repo: "hello", state: "open", per_page: 10 });
  const issues: Array<number | undefined> = listed.map((each) => each.number);
  const closed = await api.pulls_list({ owner: "octocat", repo: "hello", state: "closed", sort: "popularity" });
  const pulls: Array<string | undefined> = closed.map((pull) => pull.head?.ref);
  return JSON.stringify({ title, author, labels, stars, owner, issues, pulls });
}
`;

const INVALID = [
  'api.issues_get({ owner: "o", repo: "r" }); // missing-required',
  'api.issues_get({ owner: "o", repo: "r", issue_number: "1" }); // wrong-type',
  'api.pulls_list({ owner: "o", repo: "r", state: "merged" }); // wrong-enum',
  'api.repos_get({ owner: "o", repo: "r" }).then((r) => r.stargazer_count); // unknown-field',
  'api.pulls_list({ owner: "o", repo: "r" }).then((l) => l[0]?.titel); // unknown-field-in-list',
];

describe("GitHub's code-mode API docs", () => {
  it("compile under tsc --strict for issues_get, issues_list-for-repo, repos_get and pulls_list", async () => {
    const dir = scratchDir("github-code-api");
    const result = await generate(SPEC, join(dir, "out"), { features: ["code"] });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const file = join(dir, "out/src/code-api.json");
    const api = loadCodeApi(pathToFileURL(file));
    for (const tool of TOOLS) expect(Object.hasOwn(api.tools, tool), tool).toBe(true);

    const docs = declarationsFor(api, TOOLS);
    expect(docs).toContain("): Promise<Issue>;");
    const types = [...docs.matchAll(/^type (\w+) =/gm)].map((m) => m[1]);
    expect(new Set(types).size).toBe(types.length);
    process.stderr.write(
      `GitHub code-api.json: ${Math.round(statSync(file).size / 1024)} KiB, ${Object.keys(api.tools).length} tools, ` +
        `${Object.keys(api.types).length} types; declarations of ${TOOLS.join(", ")}: ${docs.length} characters, ` +
        `${countTokens(docs)} tokens, ${types.length} types\n`,
    );

    writeFileSync(join(dir, "valid.ts"), `${docs}\n${VALID}`);
    const invalid = `${docs}\n\nexport {};\n${INVALID.join("\n")}\n`;
    writeFileSync(join(dir, "invalid.ts"), invalid);
    const errors = typeCheck(dir, ["valid.ts", "invalid.ts"]);
    const lines = invalid.split("\n");
    const markerLines = new Set(INVALID.map((marker) => lines.indexOf(marker) + 1));
    for (const marker of INVALID) {
      expect(errorsOn(errors, "invalid.ts", lines.indexOf(marker) + 1), `${marker}\n${errors.join("\n")}`).not.toEqual(
        [],
      );
    }
    expect(errorsOutside(errors, "invalid.ts", markerLines)).toEqual([]);
  }, 300_000);
});
