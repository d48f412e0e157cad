/**
 * Views on a real API nobody tuned them for (issue 31): GitHub's whole document, generated with the apps feature.
 * issues/list-for-repo is a table whose row opens issues/get (issue_number from the row's number, owner and repo
 * from the list call's input); issues/get is a card; the columns are ones a person reads.
 */
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { load } from "../../generator/load.ts";
import { normalize } from "../../generator/normalize/normalize.ts";
import { GITHUB } from "../openapi/github-session.ts";

describe("GitHub with the apps feature", () => {
  const bag = new DiagnosticBag();
  const loaded = load(GITHUB, bag, { features: ["apps"] });
  const model = loaded && normalize(loaded.server, "github");
  const view = (name: string) => model?.tools.find((tool) => tool.node.name === name)?.view;

  it("issues_list-for-repo is a table of readable columns whose rows open issues_get", () => {
    const table = view("issues_list-for-repo");
    expect(table?.kind).toBe("table");
    if (table?.kind !== "table") return;
    expect(table.items).toBeUndefined();
    expect(table.columns.map((column) => column.key)).toEqual(
      expect.arrayContaining(["number", "title", "state", "created_at"]),
    );
    expect(table.columns.length).toBeLessThanOrEqual(8);
    expect(table.columns.map((column) => column.key)).not.toContain("node_id");
    expect(table.columns.some((column) => column.format === "link")).toBe(false);
    expect(table.open).toEqual({
      tool: "issues_get",
      label: "Open",
      args: {
        issue_number: { from: "row", key: "number" },
        owner: { from: "input", key: "owner" },
        repo: { from: "input", key: "repo" },
      },
    });
  });

  it("issues_get is a card; a list wrapped in a page (search) is a table of its items", () => {
    expect(view("issues_get")?.kind).toBe("card");
    const search = view("search_issues-and-pull-requests");
    expect(search?.kind === "table" && search.items).toBe("items");
  });

  it("most list and detail tools get a view", () => {
    const tools = model?.tools ?? [];
    const viewed = tools.filter((tool) => tool.view).length;
    const described = tools.filter((tool) => tool.node.outputSchema || tool.node.resultSchema).length;
    expect(viewed / described).toBeGreaterThan(0.9);
  });
}, 120_000);
