/**
 * Tool search (runtime/search/tool-search.ts and the modules it shares with the generator): how text
 * becomes terms, how a query is expanded, that `allowed` and `toolset` restrict what a search returns
 * while still filling `limit`, and that a missing or corrupt index file falls back to an in-memory build.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../../runtime/package/catalog-types.ts";
import { buildSearchIndex, SEARCH_INDEX_FORMAT, serializeSearchIndex } from "../../../runtime/search/search-index.ts";
import { isQuestion, parseQuery, QUERY_WORDS, SYNONYM_WEIGHT } from "../../../runtime/search/search-query.ts";
import { splitIdentifier, splitWords, termOf, termsOf, verbsOf } from "../../../runtime/search/search-text.ts";
import { createToolSearch, QUESTION_READ_BOOST, rankTools, readsOf } from "../../../runtime/search/tool-search.ts";
import { scratchDir } from "../../generate/support.ts";

const tool = (
  name: string,
  title: string,
  method: string,
  path: string,
  toolset?: string,
  params: string[] = [],
): CatalogTool => ({
  name,
  title,
  description: `${title}.`,
  inputSchema: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])) },
  http: { method, path },
  ...(toolset ? { toolset } : {}),
});

const TOOLS: CatalogTool[] = [
  tool("users_get-authenticated", "Get the authenticated user", "GET", "/user", "users"),
  tool("users_get-by-username", "Get a user", "GET", "/users/{username}", "users", ["username"]),
  tool("repos_create-fork", "Create a fork", "POST", "/repos/{owner}/{repo}/forks", "repos", ["owner", "repo"]),
  tool("repos_delete", "Delete a repository", "DELETE", "/repos/{owner}/{repo}", "repos", ["owner", "repo"]),
  tool("repos_get", "Get a repository", "GET", "/repos/{owner}/{repo}", "repos", ["owner", "repo"]),
  tool("repos_list-for-org", "List organization repositories", "GET", "/orgs/{org}/repos", "repos", ["org"]),
  tool("issues_create", "Create an issue", "POST", "/repos/{owner}/{repo}/issues", "issues", ["title", "body"]),
  tool("issues_update", "Update an issue", "PATCH", "/repos/{owner}/{repo}/issues/{n}", "issues", ["state"]),
  tool("issues_delete-label", "Delete a label", "DELETE", "/repos/{owner}/{repo}/labels/{name}", "issues"),
  tool("rate-limit_get", "Get rate limit status", "GET", "/rate_limit", "rate-limit"),
];

const search = createToolSearch(TOOLS);
const top = (query: string, limit = 3) => search.search(query, { limit, allowed: () => true });

describe("text processing", () => {
  it.each([
    ["list-for-authenticated-user", ["list", "for", "authenticated", "user"]],
    ["list_for_authenticated_user", ["list", "for", "authenticated", "user"]],
    ["repos/create-fork", ["repos", "create", "fork"]],
    ["GitHub's REST API", ["github", "s", "rest", "api"]],
    ["Créer un dépôt", ["créer", "un", "dépôt"]],
  ])("splitWords(%j)", (given, want) => expect(splitWords(given)).toEqual(want));

  it.each([
    ["listForAuthenticatedUser", ["list", "for", "authenticated", "user"]],
    ["GetHTTPStatus", ["get", "http", "status"]],
    ["per_page", ["per", "page"]],
    ["PostV1Customers", ["post", "v1", "customers"]],
  ])("splitIdentifier(%j)", (given, want) => expect(splitIdentifier(given)).toEqual(want));

  it.each([
    ["repositories", "repositori"],
    ["Repository", "repositori"],
    ["forking", "fork"],
    ["authenticated", "authent"],
    ["the", undefined],
    ["my", undefined],
    ["s", undefined],
  ])("termOf(%j) is %j", (given, want) => expect(termOf(given)).toBe(want));

  it("termsOf drops stop words and stems the rest", () => {
    expect(termsOf("List the repositories of an organization")).toEqual(["list", "repositori", "organ"]);
  });

  it.each([
    ["GET", undefined, "/orders/{id}", "get show read view detail"],
    ["GET", undefined, "/orders", "list get show find all"],
    ["post", undefined, "/orders", "create add new send run"],
    ["POST", undefined, "/orders/{id}/cancel", "cancel do action"],
    ["POST", undefined, "/orders/{id}/items", "create add new send run"],
    ["PUT", undefined, "/orders/{id}", "update set change edit replace"],
    ["PATCH", undefined, "/orders/{id}", "update set change edit replace"],
    ["DELETE", undefined, "/orders/{id}", "delete remove"],
    [undefined, true, undefined, "get list show read find"],
    [undefined, undefined, undefined, ""],
  ])("verbsOf(%j, readOnly %j, path %j): the operation's shape", (method, readOnly, path, want) =>
    expect(verbsOf(method, readOnly, undefined, path)).toBe(want),
  );
});

describe("query expansion", () => {
  const named = (term: string) => term !== "copi";
  it.each([
    // A word the API does not name passes its full weight to its synonyms.
    ["copy a repository", { copi: 1, fork: 1, clone: 1, repositori: 1 }],
    // "logged in" is a phrase about authentication, not logs.
    ["who am I logged in as", { authent: 1, user: SYNONYM_WEIGHT, member: SYNONYM_WEIGHT }],
    // A word the API names keeps its weight; its synonyms weigh less.
    ["remove a label", { remov: 1, delet: SYNONYM_WEIGHT, label: 1, tag: SYNONYM_WEIGHT }],
    // Synonyms are found by stem too: "forks" is looked up as "fork"'s family would be.
    ["repos", { repo: 1, repositori: SYNONYM_WEIGHT }],
    ["the of and", {}],
  ])("parseQuery(%j)", (query, want) => {
    const terms = Object.fromEntries(parseQuery(query, named).terms);
    for (const [term, weight] of Object.entries(want)) expect(terms[term], term).toBe(weight);
    if (Object.keys(want).length === 0) expect(terms).toEqual({});
  });
});

describe("ranking", () => {
  it.each([
    ["who am I logged in as", "users_get-authenticated"],
    ["make my own copy of someone else's repository", "repos_create-fork"],
    ["how many requests do I have left before the limit", "rate-limit_get"],
    ["get rid of a repository", "repos_delete"],
    ["close an issue", "issues_update"],
    ["open a new issue", "issues_create"],
  ])("%j finds %s first", (query, want) => expect(top(query)[0]).toBe(want));

  it("reads only the first QUERY_WORDS words of a query, so a huge one costs no more than a sentence", () => {
    const words = Array.from({ length: QUERY_WORDS }, (_, n) => (n === 0 ? "fork" : `w${n}`));
    const huge = `${words.join(" ")} ${"delete issue label ".repeat(200_000)}`;
    const start = performance.now();
    expect(top(huge)).toEqual(top(words.join(" ")));
    expect(top(huge)[0]).toBe("repos_create-fork");
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it("ranks the tool whose name the query covers above one that does more than was asked", () => {
    const tools = [
      {
        ...tool("branches_delete-protection", "Delete branch protection", "DELETE", "/branches/{b}/protection"),
        description: "Delete the protection of a branch: a protected branch is a branch with rules.",
      },
      tool("branches_delete", "Delete a branch", "DELETE", "/refs/{b}"),
    ];
    const ranked = createToolSearch(tools).search("delete the branch", { limit: 2, allowed: () => true });
    expect(ranked).toEqual(["branches_delete", "branches_delete-protection"]);
  });

  it("answers nothing for a query of stop words only, or a limit below 1", () => {
    expect(top("the of and")).toEqual([]);
    expect(search.search("repository", { limit: 0, allowed: () => true })).toEqual([]);
  });
});

describe("allowed and toolset", () => {
  it("returns only allowed tools, still filling the limit", () => {
    const all = top("repos", 4);
    expect(all.length).toBe(4);
    const allowed = (name: string) => name !== all[0] && name !== all[1];
    const some = search.search("repos", { limit: 4, allowed });
    expect(some).not.toContain(all[0]);
    expect(some).not.toContain(all[1]);
    expect(some.slice(0, 2)).toEqual(all.slice(2, 4));
    expect(some.length).toBe(4);
  });

  it("returns only the toolset asked for; a tool without one is in default", () => {
    const issues = search.search("delete", { limit: 10, allowed: () => true, toolset: "issues" });
    expect(issues).toEqual(["issues_delete-label"]);
    const plain = createToolSearch([{ name: "ping", description: "Ping the server", inputSchema: { type: "object" } }]);
    expect(plain.search("ping", { limit: 5, allowed: () => true, toolset: "default" })).toEqual(["ping"]);
    expect(plain.search("ping", { limit: 5, allowed: () => true, toolset: "other" })).toEqual([]);
  });
});

describe("the index file", () => {
  const dir = scratchDir("tool-search");
  const queries = ["who am I logged in as", "copy a repository", "delete", "list repositories", "rate limit"];
  const inMemory = queries.map((q) => top(q, 5));
  const searchWith = (file: URL) => {
    const s = createToolSearch(TOOLS, file);
    return queries.map((q) => s.search(q, { limit: 5, allowed: () => true }));
  };
  const fileWith = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return pathToFileURL(path);
  };

  it("is read when it indexes these tools", () => {
    // An index built from other titles under the same names: its ranking shows it was the one used (in
    // memory, "status" finds rate-limit_get).
    expect(top("status", 1)).toEqual(["rate-limit_get"]);
    const swapped = TOOLS.map((t, n) => ({ ...t, title: TOOLS[(n + 1) % TOOLS.length].title, description: "" }));
    const file = fileWith("swapped.json", serializeSearchIndex(buildSearchIndex(swapped)));
    const s = createToolSearch(TOOLS, file);
    expect(s.search("status", { limit: 1, allowed: () => true })).toEqual(["issues_delete-label"]);
  });

  it.each([
    ["missing", () => pathToFileURL(join(dir, "absent.json"))],
    ["not JSON", () => fileWith("corrupt.json", "{not json")],
    ["truncated", () => fileWith("cut.json", serializeSearchIndex(buildSearchIndex(TOOLS)).slice(0, 200))],
    [
      "of another format",
      () => fileWith("format.json", JSON.stringify({ format: SEARCH_INDEX_FORMAT + 1, index: {} })),
    ],
    ["not an index", () => fileWith("other.json", JSON.stringify({ format: SEARCH_INDEX_FORMAT, index: { x: 1 } }))],
    ["of other tools", () => fileWith("others.json", serializeSearchIndex(buildSearchIndex(TOOLS.slice(1))))],
  ])("falls back to an in-memory build when the file is %s", (_, file) => {
    expect(searchWith(file())).toEqual(inMemory);
  });
});

describe("questions ask for a read", () => {
  it.each([
    ["who is assigned to the onboarding task", true],
    ["What's the join link", true],
    ["is carol an admin", true],
    ["how many requests do I have left", true],
    ["delete the feature-x branch", false],
    ["show me who starred it", false],
  ])("isQuestion(%j) is %j", (query, want) => expect(isQuestion(query)).toBe(want));

  it("a question multiplies a read's score by 1 + QUESTION_READ_BOOST, a statement does not", () => {
    const tools = [
      {
        name: "a_status",
        description: "The status",
        inputSchema: { type: "object" },
        http: { method: "PATCH", path: "/s" },
      },
      {
        name: "b_status",
        description: "The status",
        inputSchema: { type: "object" },
        http: { method: "GET", path: "/s" },
      },
    ];
    const index = buildSearchIndex(tools as never);
    const reads = readsOf(tools as never);
    const ratio = (query: string) => {
      const scores = new Map(rankTools(index, query, undefined, reads).map((r) => [r.name, r.score]));
      return (scores.get("b_status") ?? 0) / (scores.get("a_status") ?? 1);
    };
    expect(ratio("is the status ok") / ratio("the status ok")).toBeCloseTo(1 + QUESTION_READ_BOOST);
    expect(readsOf(tools as never)).toEqual(new Set(["b_status"]));
  });
});
