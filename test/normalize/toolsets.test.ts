/**
 * Toolsets (issue 14 §1): which toolset each tool is in, from both front ends, through the real
 * load → validate → normalize → catalog; the toolset-name rule; the config file's renames and merges.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../generator/config/load-config.ts";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { buildModel } from "../../generator/index.ts";
import { toolsetName } from "../../generator/normalize/toolset-names.ts";
import { definitionData } from "../../generator/render/definition.ts";
import { scratchDir } from "../generate/support.ts";

type Built = ReturnType<typeof buildModel>;
const object = { type: "object" };

/** Each tool's toolset as the catalog states it, the catalog's toolsets, and every diagnostic. */
function toolsets(built: Built) {
  const data = built.model && definitionData(built.model);
  return {
    tools: Object.fromEntries((data?.catalog.tools ?? []).map((t) => [t.name, t.toolset ?? "(default)"])),
    toolsets: data?.catalog.toolsets ?? "(absent)",
    names: data?.definition.toolsetNames ?? "(absent)",
    diagnostics: built.diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer}: ${d.message}`),
  };
}

function specFile(dir: string, spec: object, name = "spec.json"): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return file;
}

const openapi = (paths: object, extra: object = {}) => ({
  openapi: "3.1.0",
  info: { title: "Demo", version: "1.0.0" },
  servers: [{ url: "https://api.example.com" }],
  paths,
  ...extra,
});
const op = (operationId: string, tags?: string[]) => ({
  operationId,
  ...(tags ? { tags } : {}),
  responses: { "200": { description: "ok" } },
});
const spec = (tools: object[]) => ({ server: { name: "demo", version: "1.0.0" }, tools });

describe("toolsets: OpenAPI", () => {
  const cases: Array<{ why: string; given: object; want: ReturnType<typeof toolsets> }> = [
    {
      why: "the first tag, lowercased and made command-line safe; descriptions from the top-level tags",
      given: openapi(
        {
          "/repos/{owner}/{repo}/pulls": { get: op("pulls_list", ["Pull Requests", "repos"]) },
          "/issues": { get: op("issues_list", ["issues"]) },
        },
        {
          tags: [
            { name: "Pull Requests", description: "Review <b>code</b> changes" },
            { name: "issues", description: "Track work" },
          ],
        },
      ),
      want: {
        tools: { pulls_list: "pull-requests", issues_list: "issues" },
        toolsets: [
          { name: "issues", description: "Track work" },
          { name: "pull-requests", description: "Review <b>code</b> changes" },
        ],
        names: ["issues", "pull-requests"],
        diagnostics: [],
      },
    },
    {
      why: "no tag: the first literal path segment after a version prefix; a path starting with a parameter, or /, is default",
      given: openapi({
        "/repos/{owner}/{repo}": { get: op("repos_get") },
        "/v1/customers/{id}": { get: op("customers_get") },
        "/api/v2.1/customers": { get: op("customers_list") },
        "/{tenant}/things": { get: op("things_list") },
        "/": { get: op("root") },
      }),
      want: {
        tools: {
          repos_get: "repos",
          customers_get: "customers",
          customers_list: "customers",
          things_list: "(default)",
          root: "(default)",
        },
        toolsets: [{ name: "customers" }, { name: "default" }, { name: "repos" }],
        names: ["customers", "default", "repos"],
        diagnostics: [],
      },
    },
  ];
  for (const { why, given, want } of cases) {
    it(why, () => {
      const file = specFile(scratchDir("toolsets"), given);
      expect(toolsets(buildModel(file))).toEqual(want);
    });
  }

  it("makes any tag a valid name", () => {
    expect(
      ["Pull Requests", "  Git--Data ", "ÄPI Keys", "all", "ALL", "___", "a/b.c", "x".repeat(80)].map(toolsetName),
    ).toEqual(["pull-requests", "git-data", "api-keys", "all-tag", "all-tag", "default", "a-b-c", "x".repeat(64)]);
  });
});

describe("toolsets: spec language", () => {
  const cases: Array<{ why: string; given: object; want: Partial<ReturnType<typeof toolsets>> }> = [
    {
      why: "toolset: on a tool, else default; no toolset at all leaves the catalog as it was",
      given: spec([
        { name: "a", inputSchema: object },
        { name: "b", inputSchema: object },
      ]),
      want: { tools: { a: "(default)", b: "(default)" }, toolsets: "(absent)", names: "(absent)", diagnostics: [] },
    },
    {
      why: "toolset: given on some tools",
      given: spec([
        { name: "a", inputSchema: object, toolset: "notes" },
        { name: "b", inputSchema: object },
      ]),
      want: {
        tools: { a: "notes", b: "(default)" },
        toolsets: [{ name: "default" }, { name: "notes" }],
        names: ["default", "notes"],
        diagnostics: [],
      },
    },
    {
      why: "a name that breaks the rule, and the reserved 'all', are errors at the toolset key",
      given: spec([
        { name: "a", inputSchema: object, toolset: "Pull Requests" },
        { name: "b", inputSchema: object, toolset: "all" },
      ]),
      want: {
        tools: {},
        diagnostics: [
          "error TOOLSET_NAME_INVALID /tools/0/toolset: toolset 'Pull Requests' of tool 'a' must be lowercase letters, digits, '_' and '-', starting with a letter or digit",
          "error TOOLSET_NAME_RESERVED /tools/1/toolset: toolset 'all' of tool 'b' is reserved: 'all' means every toolset",
        ],
      },
    },
  ];
  for (const { why, given, want } of cases) {
    it(why, () => {
      const file = specFile(scratchDir("toolsets"), given);
      expect(toolsets(buildModel(file))).toMatchObject(want);
    });
  }

  it("reports a bad toolset at its file:line:col", () => {
    const file = specFile(scratchDir("toolsets"), spec([{ name: "a", inputSchema: object, toolset: "Bad Name" }]));
    const [d] = buildModel(file).diagnostics;
    expect(d).toMatchObject({ code: "TOOLSET_NAME_INVALID", file, line: 12, pointer: "/tools/0/toolset" });
  });
});

describe("toolsets: the config file renames and merges", () => {
  /** Generates through a JSON config file, as `mcpgen generate` with no arguments does. */
  async function viaConfig(
    given: object,
    map: unknown,
  ): Promise<Partial<ReturnType<typeof toolsets>> & { config: string; all?: Built["diagnostics"] }> {
    const dir = scratchDir("toolsets-config");
    specFile(dir, given);
    const config = specFile(dir, { input: "spec.json", output: "out", toolsets: map }, "mcpgen.config.json");
    const bag = new DiagnosticBag();
    const targets = await loadConfig(config, bag);
    if (!targets) return { config, diagnostics: bag.sorted().map((d) => `${d.code} ${d.pointer}: ${d.message}`) };
    const built = buildModel(targets[0].input, targets[0].options);
    return { config, ...toolsets(built), all: built.diagnostics };
  }
  const api = openapi(
    {
      "/pulls": { get: op("pulls_list", ["pulls"]) },
      "/git/refs": { get: op("git_refs", ["git"]) },
      "/issues": { get: op("issues_list", ["issues"]) },
    },
    { tags: [{ name: "git", description: "Low-level Git" }] },
  );

  it("renames one toolset and merges two into one", async () => {
    const got = await viaConfig(api, { pulls: "code", git: "code", issues: "tracker" });
    expect(got).toMatchObject({
      tools: { pulls_list: "code", git_refs: "code", issues_list: "tracker" },
      toolsets: [{ name: "code", description: "Low-level Git" }, { name: "tracker" }],
      names: ["code", "tracker"],
      diagnostics: [],
    });
  });

  it("warns about a source no tool is in, with a did-you-mean, at the config key", async () => {
    const got = await viaConfig(api, { isues: "tracker" });
    expect(got.diagnostics).toEqual([
      "warning CONFIG_TOOLSET_UNKNOWN /toolsets/isues: no tool is in a toolset 'isues'",
    ]);
    expect(got.all?.[0]).toMatchObject({ file: got.config, line: 5, hint: "did you mean 'issues'?" });
    expect(got.tools).toEqual({ pulls_list: "pulls", git_refs: "git", issues_list: "issues" });
  });

  it("refuses a target that breaks the name rule, or is all", async () => {
    const got = await viaConfig(api, { pulls: "Code Review", git: "all", issues: 3 });
    expect(got.diagnostics).toEqual([
      "CONFIG_INVALID /toolsets/pulls: toolsets: 'pulls' becomes 'Code Review', which must be lowercase letters, digits, '_' and '-', starting with a letter or digit",
      "CONFIG_INVALID /toolsets/git: toolsets: 'git' becomes 'all', which is reserved: 'all' means every toolset",
      "CONFIG_INVALID /toolsets/issues: toolsets: 'issues' becomes a number: the target must be a string",
    ]);
  });

  it("works for the spec language too", async () => {
    const got = await viaConfig(spec([{ name: "a", inputSchema: object, toolset: "notes" }]), { notes: "memo" });
    expect(got).toMatchObject({ tools: { a: "memo" }, names: ["memo"], diagnostics: [] });
  });
});
