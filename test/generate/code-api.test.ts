/**
 * Code mode's typed API docs (issue 15): `mcpgen generate` writes src/code-api.json, and what search_docs
 * answers from it (declarationsFor) is real TypeScript: with a snippet that calls the tools it compiles
 * under tsc --strict when the arguments are right, and fails where they are not. Only the types the named
 * tools reach are printed, each once; a hostile summary cannot leave its comment.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/index.ts";
import { declarationLine, declarationsFor, loadCodeApi, parseCodeApi } from "../../runtime/features/code/code-api.ts";
import type { CodeApiFile } from "../../runtime/features/code/code-api-types.ts";
import { scratchDir } from "./support.ts";
import { errorsOn, errorsOutside, typeCheck } from "./type-check.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: unknown) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
const repoParams = ["owner", "repo"].map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
// biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder is part of the hostile text
const HOSTILE = "Get an issue */ declare const pwned: number; /* `${process.env}` ```";

/** A small API with shared nested types, arrays, enums, optional and nullable fields, an array answer. */
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Tracker", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:9" }],
  paths: {
    "/repos/{owner}/{repo}": {
      get: {
        operationId: "repos_get",
        summary: "Get a repository.",
        parameters: repoParams,
        responses: ok(ref("Repo")),
      },
    },
    "/repos/{owner}/{repo}/issues": {
      get: {
        operationId: "issues_list-for-repo",
        summary: "List repository issues. Only open ones by default.",
        parameters: [
          ...repoParams,
          { name: "state", in: "query", schema: { type: "string", enum: ["open", "closed", "all"] } },
          { name: "per_page", in: "query", description: "Results per page (max 100).", schema: { type: "integer" } },
        ],
        responses: ok({ type: "array", items: ref("Issue") }),
      },
      post: {
        operationId: "issues_create",
        summary: "Create an issue",
        parameters: repoParams,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { title: { type: "string" }, labels: { type: "array", items: { type: "string" } } },
                required: ["title"],
              },
            },
          },
        },
        responses: ok(ref("Issue")),
      },
    },
    "/repositories/{id}": {
      get: {
        operationId: "repos_get-by-id",
        summary: "Get a repository by its id.",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: ok(ref("Repo")),
      },
    },
    "/zen": {
      get: {
        operationId: "meta_zen",
        summary: "A line of wisdom.",
        responses: { "200": { description: "ok", content: { "text/plain": { schema: { type: "string" } } } } },
      },
    },
    "/search/issues": {
      get: {
        operationId: "search_issues",
        summary: "Search issues.",
        parameters: [{ name: "q", in: "query", required: true, schema: { type: "string" } }],
        responses: ok(ref("IssueSearch")),
      },
    },
    "/repos/{owner}/{repo}/issues/{issue_number}": {
      get: {
        operationId: "issues_get",
        summary: HOSTILE,
        parameters: [...repoParams, { name: "issue_number", in: "path", required: true, schema: { type: "integer" } }],
        responses: ok(ref("Issue")),
      },
    },
  },
  components: {
    schemas: {
      User: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" } } },
      // GitHub's way: a nullable twin spelled out again. It prints as `User | null`.
      NullableUser: {
        type: ["object", "null"],
        properties: { login: { type: "string" }, id: { type: "integer" } },
      },
      IssueSearch: {
        type: "object",
        properties: { total: { type: "integer" }, items: { type: "array", items: ref("Issue") } },
      },
      Label: {
        type: "object",
        properties: { name: { type: "string" }, color: { type: "string", enum: ["red", "re\u202ed"] } },
      },
      // Milestone and Issue refer to each other: pruning follows the cycle and prints each once.
      Milestone: {
        type: "object",
        properties: { title: { type: "string" }, creator: ref("User"), issues: { type: "array", items: ref("Issue") } },
      },
      Issue: {
        type: "object",
        properties: {
          number: { type: "integer" },
          title: { type: "string", description: "The title. Ends here */ or not" },
          state: { type: "string", enum: ["open", "closed"] },
          user: ref("User"),
          assignee: ref("NullableUser"),
          labels: { type: "array", items: ref("Label") },
          milestone: ref("Milestone"),
        },
        required: ["number", "title", "state"],
      },
      Repo: { type: "object", properties: { name: { type: "string" }, owner: ref("User") } },
      Unused: { type: "object", properties: { x: { type: "string" } } },
    },
  },
};

/** A snippet an agent could write against the declarations: every line is valid under --strict. */
const VALID = `
async function agent(): Promise<string[]> {
  const issue = await api.issues_get({ owner: "o", repo: "r", issue_number: 1, _fields: ["title"] });
  const title: string | undefined = issue.title;
  const state: "open" | "closed" | undefined = issue.state;
  const who: string | undefined = issue.user?.login ?? issue.assignee?.login;
  const labels: Array<string | undefined> = (issue.labels ?? []).map((label) => label.name);
  const creator: number | undefined = issue.milestone?.creator?.id;
  const created = await api.issues_create({ owner: "o", repo: "r", title: "t", labels: ["bug"] });
  const repo = await api.repos_get({ owner: "o", repo: "r" });
  const same: string | undefined = (await api["repos_get-by-id"]({ id: 7 })).owner?.login ?? repo.name;
  const list = await api["issues_list-for-repo"]({ owner: "o", repo: "r", state: "all", per_page: 5 });
  const numbers: Array<number | undefined> = list.map((each) => each.number);
  const zen: unknown = await api.meta_zen({});
  return [String(title), String(state), String(who), ...labels.map(String), String(creator), String(created.number),
    String(repo.owner?.login), String(numbers), String(same), String(zen)];
}
export { agent };
`;

/** Each line must fail to compile on its own; the marker names what is wrong. */
const INVALID = [
  'api.issues_get({ owner: "o", repo: "r" }); // missing-required',
  'api.issues_get({ owner: "o", repo: "r", issue_number: "1" }); // wrong-type',
  'api["issues_list-for-repo"]({ owner: "o", repo: "r", state: "opened" }); // wrong-enum',
  'api.issues_create({ owner: "o", repo: "r", title: "t", lables: [] }); // unknown-argument',
  'api.issues_remove({ owner: "o" }); // unknown-tool',
  'api.issues_get({ owner: "o", repo: "r", issue_number: 1 }).then((i) => i.titel); // unknown-field',
  'api["issues_list-for-repo"]({ owner: "o", repo: "r" }).then((l) => l[0]?.titel); // unknown-field-in-list',
  "api.meta_zen({}).then((z) => z.length); // untyped-answer",
  "pwned; // comment-escape",
];

describe("src/code-api.json and search_docs' declarations", () => {
  let dir: string;
  let api: CodeApiFile;
  beforeAll(async () => {
    dir = scratchDir("code-api");
    const spec = join(dir, "tracker.openapi.json");
    writeFileSync(spec, JSON.stringify(SPEC));
    const result = await generate(spec, join(dir, "out"), { features: ["code"] });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    api = loadCodeApi(pathToFileURL(join(dir, "out/src/code-api.json")));
  }, 120_000);

  it("compile under tsc --strict with correct calls, and reject wrong ones", () => {
    const docs = declarationsFor(api, Object.keys(api.tools));
    const valid = join(dir, "valid.ts");
    const invalid = join(dir, "invalid.ts");
    writeFileSync(valid, `${docs}\n${VALID}`);
    writeFileSync(invalid, `${docs}\n\nexport {};\n${INVALID.join("\n")}\n`);
    const errors = typeCheck(dir, ["valid.ts", "invalid.ts"]);
    expect(errors.filter((e) => e.startsWith("valid.ts("))).toEqual([]);
    const lines = readFileSync(invalid, "utf8").split("\n");
    const markerLines = new Set<number>();
    for (const marker of INVALID) {
      const at = lines.indexOf(marker) + 1;
      expect(at, marker).toBeGreaterThan(0);
      markerLines.add(at);
      expect(errorsOn(errors, "invalid.ts", at), `${marker}\n${errors.join("\n")}`).not.toEqual([]);
    }
    // Nothing else fails: the declarations themselves are sound.
    expect(errorsOutside(errors, "invalid.ts", markerLines)).toEqual([]);
  }, 120_000);

  it("print only the types the named tools reach, transitively, each once", () => {
    const docs = declarationsFor(api, ["repos_get", "nope"]);
    expect(docs.startsWith("declare const api: {\n  /** Get a repository. */\n  repos_get(args: {")).toBe(true);
    const declared = [...docs.matchAll(/^type (\w+) =/gm)].map((m) => m[1]);
    expect(declared).toEqual(["ReposGetOutput", "User"]);
    expect(docs).not.toContain("issues_get");

    const issue = declarationsFor(api, ["issues_get", "issues_get", "issues_create"]);
    const names = [...issue.matchAll(/^type (\w+) =/gm)].map((m) => m[1]);
    expect(names).toEqual(["Issue", "User", "NullableUser", "Label", "Milestone"]);
    expect(issue.match(/^ {2}issues_get\(/gm)).toHaveLength(1);
    expect(issue).not.toMatch(/Unused|Repo|ToolMap|Handlers/);
    expect(declarationsFor(api, ["nope"])).toBe("");
  });

  it("print a type that repeats another as an alias of it", () => {
    // The same answer as repos_get: named by the type that spells it first, not declared again.
    expect(declarationLine(api, "repos_get-by-id")).toMatch(/\): Promise<ReposGetOutput>;$/);
    const docs = declarationsFor(api, ["issues_get"]);
    expect(docs).toContain("\ntype NullableUser = User | null;");
    expect([...docs.matchAll(/^type (\w+) =/gm)].map((m) => m[1])).toEqual([
      "Issue",
      "User",
      "NullableUser",
      "Label",
      "Milestone",
    ]);
  });

  it("type a list answer as a list of its item type", () => {
    // No outputSchema can describe a list (MCP's must be an object): the declaration still types it.
    expect(declarationLine(api, "issues_list-for-repo")).toMatch(/\): Promise<Issue\[\]>;$/);
    const docs = declarationsFor(api, ["issues_list-for-repo"]);
    expect([...docs.matchAll(/^type (\w+) =/gm)].map((m) => m[1])).toEqual([
      "Issue",
      "User",
      "NullableUser",
      "Label",
      "Milestone",
    ]);
  });

  it("give each tool a one-line doc comment that cannot close early, and `unknown` for an untyped answer", () => {
    const line = declarationLine(api, "issues_get") ?? "";
    const [doc, signature] = line.split("\n");
    expect(doc.startsWith("/** Get an issue *\\/ declare const pwned")).toBe(true);
    expect(doc.slice(0, -2)).not.toContain("*/");
    expect(doc.endsWith(" */")).toBe(true);
    expect(signature).toBe("issues_get(args: {");
    expect(line).toMatch(/\n {2}issue_number: number;\n[\s\S]*\n\}\): Promise<Issue>;$/);
    expect(declarationLine(api, "issues_list-for-repo")).toMatch(
      /^\/\*\* List repository issues\. \*\/\n"issues_list-for-repo"\(args: \{[\s\S]*\/\*\* Results per page \(max 100\)\. \*\/[\s\S]*\}\): Promise<Issue\[\]>;$/,
    );
    expect(declarationLine(api, "meta_zen")).toMatch(
      /^\/\*\* A line of wisdom\. \*\/\nmeta_zen\(args: \{[\s\S]*\}\): Promise<unknown>;$/,
    );
    expect(declarationLine(api, "nope")).toBeUndefined();
    // A bidirectional override in a string literal type is escaped: the same type, visibly.
    expect(api.types.Label.declaration).toContain('color?: "red" | "re\\u202ed";');
    expect(readFileSync(join(dir, "out/src/code-api.json"), "utf8")).not.toMatch(/\u202e/);
  });

  it("are copied by the build; a missing or corrupt file reads as an empty API", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8"));
    expect(pkg.scripts.build).toContain("'code-api.json'");
    expect(loadCodeApi(pathToFileURL(join(dir, "missing.json")))).toEqual({ tools: {}, types: {} });
    const parsed = parseCodeApi(
      '{"tools":{"a":{"declaration":"a(): void;","types":["T",1]},"b":{"types":[]}},"types":7}',
    );
    expect(JSON.parse(JSON.stringify(parsed))).toEqual({
      tools: { a: { declaration: "a(): void;", types: ["T"] } },
      types: {},
    });
    expect(parseCodeApi("{not json")).toEqual({ tools: {}, types: {} });
  });

  it("print in a stable order: the tools as asked, then their types breadth first, cycles and unknown names skipped", () => {
    const file = parseCodeApi(
      JSON.stringify({
        tools: {
          a: { declaration: "/** A. */\na(args: { x: X }): Promise<Y>;", types: ["X", "Y", "Missing"] },
          "b-c": { declaration: '/** B. */\n"b-c"(args: { z: string }): Promise<unknown>;', types: [] },
        },
        types: {
          X: { declaration: "type X = { y: Y; z: Z };", types: ["Y", "Z"] },
          Y: { declaration: "type Y = { x?: X };", types: ["X"] },
          Z: { declaration: "type Z = string;", types: [] },
        },
      }),
    );
    expect(declarationsFor(file, ["b-c", "a", "b-c"])).toBe(
      [
        "declare const api: {",
        "  /** B. */",
        '  "b-c"(args: { z: string }): Promise<unknown>;',
        "  /** A. */",
        "  a(args: { x: X }): Promise<Y>;",
        "};",
        "",
        "type X = { y: Y; z: Z };",
        "",
        "type Y = { x?: X };",
        "",
        "type Z = string;",
      ].join("\n"),
    );
  });

  it("are not written for a package without tools", async () => {
    const spec = join(dir, "docs-only.yaml");
    const lines = ["server: { name: docs-only, version: 1.0.0 }", "resources:", "  - uri: docs://readme"];
    writeFileSync(spec, [...lines, "    name: readme", "    mimeType: text/plain", "    text: Hello", ""].join("\n"));
    const result = await generate(spec, join(dir, "docs-only"));
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(existsSync(join(dir, "docs-only/src/catalog.json"))).toBe(true);
    expect(existsSync(join(dir, "docs-only/src/code-api.json"))).toBe(false);
  }, 60_000);
});
