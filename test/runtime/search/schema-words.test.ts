// What search reads of a tool's schemas (issue 29): an answer's field names, argument enum values and
// descriptions, bounded and safe on recursive schemas.
import { describe, expect, it } from "vitest";
import { schemaWords } from "../../../runtime/search/schema-words.ts";
import { toolDocument } from "../../../runtime/search/search-index.ts";
import { createToolSearch } from "../../../runtime/search/tool-search.ts";

describe("schemaWords", () => {
  it("collects property names, descriptions and string enum values, through $ref, arrays and allOf", () => {
    const schema = {
      type: "object",
      properties: {
        status: { type: "string", enum: ["active", "suspended", 3], description: "Where the account stands" },
        owner: { $ref: "#/$defs/user" },
        tags: { type: "array", items: { allOf: [{ type: "object", properties: { label: { type: "string" } } }] } },
        _fields: { type: "array", description: "the runtime's own" },
      },
      $defs: { user: { type: "object", properties: { login: { type: "string" } } } },
    };
    expect(schemaWords(schema, 3)).toEqual({
      names: ["status", "owner", "login", "tags", "label"],
      descriptions: ["Where the account stands"],
      values: ["active", "suspended"],
    });
  });

  it("stops at the depth it is given", () => {
    const deep = { type: "object", properties: { a: { type: "object", properties: { b: { type: "string" } } } } };
    expect(schemaWords(deep, 1).names).toEqual(["a"]);
    expect(schemaWords(deep, 2).names).toEqual(["a", "b"]);
  });

  it("visits a recursive schema once per node", () => {
    const node: Record<string, unknown> = { type: "object", properties: { name: { type: "string" } } };
    (node.properties as Record<string, unknown>).child = node;
    expect(schemaWords(node, 50).names).toEqual(["name", "child"]);
    expect(schemaWords("not a schema", 3)).toEqual({ names: [], descriptions: [], values: [] });
  });
});

describe("what the index holds of a tool", () => {
  const issue = {
    name: "getIssue",
    description: "Returns one issue.",
    inputSchema: {
      type: "object" as const,
      properties: { expand: { type: "string", enum: ["changelog"], description: "Include the history" } },
    },
    outputSchema: { type: "object" as const, properties: { assignee: { type: "object" }, status: { type: "string" } } },
    http: { method: "GET", path: "/issue/{id}" },
    toolset: "issues",
  };

  it("indexes the answer's fields, the arguments' enums and descriptions, and the toolset's description", () => {
    const document = toolDocument(issue as never, new Set(), new Map([["issues", "Work items of a project"]]));
    expect(document).toMatchObject({
      fields: "assignee status",
      values: "changelog",
      details: "Include the history",
      about: "Work items of a project",
      verbs: "get show read view detail",
    });
  });

  it("finds a read by a field its answer holds", () => {
    const list = { ...issue, name: "listProjects", outputSchema: undefined, description: "Lists projects." };
    const search = createToolSearch([list, issue] as never);
    expect(search.search("assignee of the issue", { limit: 1, allowed: () => true })).toEqual(["getIssue"]);
  });
});
